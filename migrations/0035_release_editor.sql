-- The release editor (issue 23): an editor's edits of a release note, kept apart from what generation
-- writes, so that a later run updates the generated content and the edits are applied onto it again,
-- item by item (src/entries/release-edits.ts). `generated` is the newest content generation proposed
-- for the note (a generated record, as in release_note_revisions); the note's row, or its pending
-- revision while the note is published, holds that content with the edits applied.
CREATE TABLE release_note_edits (
  release_id  uuid PRIMARY KEY REFERENCES release_notes (id) ON DELETE CASCADE,
  project_id  uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  edits       jsonb NOT NULL,
  generated   jsonb NOT NULL,
  edited_at   timestamptz NOT NULL DEFAULT now(),
  edited_by   uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX release_note_edits_project_idx ON release_note_edits (project_id);

-- An editor's introduction (Markdown), shown before the note's changes: part of what readers see, so
-- a column of the note (and of its revisions' records), written only by a publish like the rest.
ALTER TABLE release_notes ADD COLUMN introduction text;
