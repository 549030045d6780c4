-- Release notes: one per release tag of a project (src/generation/releases.ts), plus one "Unreleased"
-- note (key `release:unreleased`, tag NULL) for what no root release contains yet. Generation writes
-- them in the run (and transaction) that writes the entries, matched by `key`; their status follows
-- the project's publishing policy like entries'. They are not entries: the contract's entry_type
-- stays as it is, and the public API serves them on routes of their own (an OpenAPI extension).
CREATE TABLE release_notes (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id        uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  key               text NOT NULL,
  tag               text,
  package           text,
  version           text,
  prerelease        boolean NOT NULL DEFAULT false,
  previous_tag      text,
  released_at       timestamptz,
  title             text NOT NULL,
  content           text NOT NULL DEFAULT '',
  generated_json    jsonb NOT NULL,
  team_attribution  text,
  component_tags    text[] NOT NULL DEFAULT '{}',
  commit_shas       text[] NOT NULL DEFAULT '{}',
  fingerprint       text,
  status            text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived')),
  published_at      timestamptz,
  -- Newest first with the Unreleased note (no release date) on top: one sortable, non-null key,
  -- so the listing's cursor is a plain (sort_at, id) comparison.
  sort_at           timestamptz GENERATED ALWAYS AS (coalesce(released_at, 'infinity'::timestamptz)) STORED,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, key),
  CHECK ((status = 'published') = (published_at IS NOT NULL)),
  CHECK ((tag IS NULL) = (key = 'release:unreleased'))
);

-- The public listing: a project's published notes, newest release first, ties by id.
CREATE INDEX release_notes_published_idx ON release_notes (project_id, sort_at DESC, id DESC) WHERE status = 'published';
-- A permalink: a project's published note by tag.
CREATE INDEX release_notes_published_tag_idx ON release_notes (project_id, tag) WHERE status = 'published';

-- Like changelog_entries (migrations 0007, 0017): one statement-level trigger per event announces
-- every project the statement touched (the response cache drops `project:<id>`), and a change that
-- involves a published note moves the project's published_changed_at (Last-Modified of the page and
-- feeds). Drafts changing alone change nothing public.
CREATE FUNCTION release_notes_after_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE projects p SET published_changed_at = clock_timestamp()
    WHERE p.id IN (SELECT project_id FROM new_rows WHERE status = 'published');
    FOR changed IN SELECT DISTINCT project_id FROM new_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE projects p SET published_changed_at = clock_timestamp()
    WHERE p.id IN (SELECT project_id FROM old_rows WHERE status = 'published');
    FOR changed IN SELECT DISTINCT project_id FROM old_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  ELSE
    UPDATE projects p SET published_changed_at = clock_timestamp()
    WHERE p.id IN (
      SELECT project_id FROM new_rows WHERE status = 'published'
      UNION SELECT project_id FROM old_rows WHERE status = 'published'
    );
    FOR changed IN SELECT project_id FROM new_rows UNION SELECT project_id FROM old_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER release_notes_after_insert
  AFTER INSERT ON release_notes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION release_notes_after_statement();
CREATE TRIGGER release_notes_after_delete
  AFTER DELETE ON release_notes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION release_notes_after_statement();
CREATE TRIGGER release_notes_after_update
  AFTER UPDATE ON release_notes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION release_notes_after_statement();
