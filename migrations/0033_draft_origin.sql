-- Where a draft came from, so that a change of publishing policy publishes only what the policy held
-- back (issue 23): a draft generation made under a `manual` type policy is published when that type
-- becomes `auto`; a draft an editor made by unpublishing is theirs and stays; history drafts (the
-- history policy `draft`) follow the history policy, not the type's.
--
-- history_at: the date a generated row carries as history (when its change, or its release tag,
--   reached the branch before the link); null for new work, and for rows stored before this
--   migration (they count as new work).
-- unpublished_at: when a person last moved the row from published back to draft; cleared when it is
--   published again. Rows unpublished before this migration cannot be told apart (null).
ALTER TABLE changelog_entries
  ADD COLUMN history_at     timestamptz,
  ADD COLUMN unpublished_at timestamptz;

ALTER TABLE release_notes
  ADD COLUMN history_at     timestamptz,
  ADD COLUMN unpublished_at timestamptz;
