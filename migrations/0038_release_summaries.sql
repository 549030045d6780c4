-- Machine-written release summaries (issue 26, docs/summaries.md): what a language model proposed for a
-- release note, after verification, waiting for the editor. No public surface reads this table: accepting
-- a summary turns it into the editor's edits (release_note_edits), which reach readers only by a publish.
CREATE TABLE release_note_summaries (
  release_id  uuid PRIMARY KEY REFERENCES release_notes (id) ON DELETE CASCADE,
  project_id  uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- The fingerprint of the generated content it was written for: new content asks the model again.
  fingerprint text NOT NULL,
  model       text NOT NULL,
  status      text NOT NULL CHECK (status IN ('pending', 'accepted', 'dismissed', 'failed')),
  -- { sentences: [{ text, items }], rewordings: [{ id, text }], rejected: [{ kind, text, reason }] }
  summary     jsonb NOT NULL,
  -- Why no summary came (a timeout, the server's status, a malformed answer); null when one did.
  error       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  decided_at  timestamptz,
  decided_by  uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX release_note_summaries_project_idx ON release_note_summaries (project_id);
