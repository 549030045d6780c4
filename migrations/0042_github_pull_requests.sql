-- Merged pull requests of GitHub links (issue 24): title, description, labels, author and commits of
-- each, as the App's GraphQL API lists them, for generation to read beside the commits; and per link
-- where the incremental fetch stands.
--
-- Kept per link, not per GitHub repository: a link belongs to one project of one tenant, so a tenant
-- reads only what its own links fetched, and deleting a link deletes its cache. Two links of the same
-- repository (two projects, or two branches of one) each keep their own copy: a page of 50 costs one
-- point of the installation's 5,000 an hour, so the copy costs little and shares nothing across projects.

CREATE TABLE github_pull_requests (
  link_id       uuid NOT NULL REFERENCES repo_links(id) ON DELETE CASCADE,
  number        integer NOT NULL,
  title         text NOT NULL,
  -- At most 64 KiB of UTF-8 (github.client.ts caps it before it is stored).
  body          text NOT NULL DEFAULT '',
  -- At most 50 names, as GitHub spells them.
  labels        text[] NOT NULL DEFAULT '{}',
  -- Null when the account was deleted ("ghost").
  author_login  text,
  author_is_bot boolean NOT NULL DEFAULT false,
  merged_at     timestamptz NOT NULL,
  -- GitHub's updatedAt: an edit after the merge (labels, title, body) brings it back to the top of the list.
  updated_at    timestamptz NOT NULL,
  merge_sha     text,
  -- The pull request's own commits, oldest first (at most 100).
  commit_shas   text[] NOT NULL DEFAULT '{}',
  fetched_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (link_id, number)
);
-- Generation finds a link's pull requests by the merge commits in its history.
CREATE INDEX github_pull_requests_merge_sha_idx ON github_pull_requests (link_id, merge_sha) WHERE merge_sha IS NOT NULL;

-- Where a link's fetch stands. The list is read newest updated first; a walk goes down it until it
-- reaches pull requests updated before `watermark` (all cached as they are), then `watermark` becomes
-- the newest updatedAt the walk saw (`walk_top`). A walk cut short (a batch's pages, a rate limit)
-- keeps its place in `walk_cursor` and goes on from there; a fresh link has no watermark and walks the
-- whole list, in batches.
CREATE TABLE github_pr_syncs (
  link_id          uuid PRIMARY KEY REFERENCES repo_links(id) ON DELETE CASCADE,
  watermark        timestamptz,
  walk_cursor      text,
  walk_top         timestamptz,
  -- Pull requests changed since generation last ran for them: a run is queued when the walk ends.
  generate_pending boolean NOT NULL DEFAULT false,
  -- A push came while a walk was under way (its job already queued or running): once that walk ends,
  -- another starts from the top, so pull requests updated meanwhile are not left for the push after.
  rewalk           boolean NOT NULL DEFAULT false,
  -- Set while GitHub's rate limit holds the fetch back (the job waits until then).
  retry_at         timestamptz,
  last_error       text,
  last_synced_at   timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
