-- Release branches (issue 23): a link may name branch patterns (`*.x`, `release/*`) whose tags make
-- release notes beside the tracked branch's. Ingest stores the commits only those branches reach with
-- `on_tracked_branch = false`: release notes range over them, entries and rollups never read them.
-- `release_heads` (branch → tip at the last completed ingest) lets the next ingest read only what is new.
ALTER TABLE repo_links
  ADD COLUMN release_branches text[] NOT NULL DEFAULT '{}',
  ADD COLUMN release_heads jsonb NOT NULL DEFAULT '{}';
ALTER TABLE commits ADD COLUMN on_tracked_branch boolean NOT NULL DEFAULT true;
-- Few rows: a link's release-only commits, read at each ingest of a link with release branches.
CREATE INDEX commits_release_only_idx ON commits (repo_link_id) WHERE NOT on_tracked_branch;
