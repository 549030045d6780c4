-- Public content changes only by a publish. A published entry or release note keeps in its own
-- columns the revision readers see; when generation proposes other content for it under the type's
-- `manual` policy, that content waits here, as a pending revision, until an editor publishes it
-- (applied to the row then, as any publish) or discards it. Kept in tables of their own rather than
-- in columns of the published row, so that storing a proposal writes nothing public: no row version,
-- no published_changed_at (Last-Modified, the feeds' updated), no webhook event, no listing trigger.
CREATE TABLE changelog_entry_revisions (
  entry_id     uuid PRIMARY KEY REFERENCES changelog_entries (id) ON DELETE CASCADE,
  project_id   uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- The generated columns as generation writes them in place (entries.repository.ts updateGenerated).
  record       jsonb NOT NULL,
  fingerprint  text NOT NULL,
  proposed_at  timestamptz NOT NULL DEFAULT now(),
  -- An editor kept the public revision: kept as the answer to this fingerprint, so the next run does
  -- not propose the same content again; a different fingerprint is a new proposal.
  discarded_at timestamptz
);
-- The review queue's "waiting" rows of a project.
CREATE INDEX changelog_entry_revisions_waiting_idx ON changelog_entry_revisions (project_id) WHERE discarded_at IS NULL;

CREATE TABLE release_note_revisions (
  release_id   uuid PRIMARY KEY REFERENCES release_notes (id) ON DELETE CASCADE,
  project_id   uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  record       jsonb NOT NULL,
  fingerprint  text NOT NULL,
  proposed_at  timestamptz NOT NULL DEFAULT now(),
  discarded_at timestamptz
);
CREATE INDEX release_note_revisions_waiting_idx ON release_note_revisions (project_id) WHERE discarded_at IS NULL;
