-- Where a draft came from, so that a change of publishing policy publishes only what the policy held
-- back (issue 23): a draft generation made under a `manual` type policy is published when that type
-- becomes `auto`; a draft an editor made by unpublishing is theirs and stays; history drafts (the
-- history policy `draft`) follow the history policy, not the type's.
--
-- history_at: the date a generated row carries as history (when its change, or its release tag,
--   reached the branch before the link); null for new work.
-- unpublished_at: when a person last moved the row from published back to draft; cleared when it is
--   published again.
ALTER TABLE changelog_entries
  ADD COLUMN history_at     timestamptz,
  ADD COLUMN unpublished_at timestamptz;

ALTER TABLE release_notes
  ADD COLUMN history_at     timestamptz,
  ADD COLUMN unpublished_at timestamptz;

-- Drafts stored before this migration cannot be told apart (held back by a policy, history held back
-- by the history policy, or unpublished by an editor): they are counted as an editor's, so that no
-- later change of policy publishes them unasked. An editor publishes them as before.
UPDATE changelog_entries SET unpublished_at = updated_at WHERE status = 'draft';
UPDATE release_notes SET unpublished_at = updated_at WHERE status = 'draft';

-- Bots' commits are skipped by default from now on (src/generation/settings.ts). Projects that
-- existed before keep what they had (bots' commits kept) unless their settings say otherwise.
UPDATE projects SET generation_settings = generation_settings || '{"excludeBots": false}'::jsonb
  WHERE NOT generation_settings ? 'excludeBots';
