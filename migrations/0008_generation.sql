-- Generation from stored commits: per-project settings, and the bookkeeping that makes storing
-- generated entries incremental, idempotent and safe for human edits.

-- The project's generation settings as given (the engine's SettingsInput); defaults are filled
-- and everything is validated by resolveSettings on the way in and out.
ALTER TABLE projects ADD COLUMN generation_settings jsonb NOT NULL DEFAULT '{}';

ALTER TABLE changelog_entries
  -- The engine's stable key (`commit:<sha>`, `weekly:2024-01-01`); null for imported entries.
  ADD COLUMN generation_key       text,
  -- Hash of what was generated: an entry is rewritten only when it changes.
  ADD COLUMN fingerprint          text,
  -- Set when a person edits the title or content: regeneration keeps their text from then on.
  ADD COLUMN edited_at            timestamptz,
  -- An edited entry whose commits changed since: the dashboard offers a regenerate.
  ADD COLUMN pending_regeneration boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT changelog_entries_generation_key_key UNIQUE (project_id, generation_key);
