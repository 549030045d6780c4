-- Links managed from the dashboard: sync progress and outcome shown on the project page, links
-- whose every fetch re-checks the operator's path and address rules, and unlinking that keeps
-- the commits (and so the entries made from them) unless asked to purge them.
ALTER TABLE repo_links
  ADD COLUMN sync_state      text NOT NULL DEFAULT 'idle' CHECK (sync_state IN ('idle', 'queued', 'running')),
  ADD COLUMN sync_done       integer NOT NULL DEFAULT 0,
  ADD COLUMN sync_total      integer NOT NULL DEFAULT 0,
  ADD COLUMN last_synced_at  timestamptz,
  ADD COLUMN last_sync_added integer,
  ADD COLUMN restricted      boolean NOT NULL DEFAULT false;

-- Polling reads the links without push webhooks.
CREATE INDEX repo_links_local_idx ON repo_links (created_at) WHERE kind = 'local';

-- A removed link leaves its commits to the project (repo_link_id NULL); `--purge` deletes them first.
ALTER TABLE commits DROP CONSTRAINT commits_repo_link_id_fkey;
ALTER TABLE commits
  ADD CONSTRAINT commits_repo_link_id_fkey FOREIGN KEY (repo_link_id) REFERENCES repo_links (id) ON DELETE SET NULL;
