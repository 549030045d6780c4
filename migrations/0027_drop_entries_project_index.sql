-- changelog_entries_project_idx (project_id, created_at DESC) serves no query any more: nothing lists
-- entries by created_at, and every lookup by project is served by an index that leads with project_id
-- (the unique (project_id, generation_key), the review and published indexes). It still cost every
-- written row its maintenance, and a first sync writes one row per commit and rollup.
DROP INDEX IF EXISTS changelog_entries_project_idx;
