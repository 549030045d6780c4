-- Source control: GitHub App installations, repository links, webhook deliveries, and the commit
-- fields ingestion fills (changed paths, co-authors, pull request, tags, reachability).

CREATE TABLE scm_installations (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  provider            text NOT NULL DEFAULT 'github' CHECK (provider IN ('github')),
  -- GitHub's installation id; one row per installation, owned by one context.
  scm_installation_id bigint NOT NULL UNIQUE CHECK (scm_installation_id > 0),
  context_type        text NOT NULL CHECK (context_type IN ('user', 'org')),
  user_id             uuid REFERENCES users (id) ON DELETE CASCADE,
  org_id              uuid REFERENCES organizations (id) ON DELETE CASCADE,
  account_login       text NOT NULL,
  account_type        text NOT NULL,
  setup_action        text NOT NULL,
  status              text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'deleted')),
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK ((context_type = 'user' AND user_id IS NOT NULL AND org_id IS NULL)
      OR (context_type = 'org' AND org_id IS NOT NULL AND user_id IS NULL))
);
CREATE INDEX scm_installations_user_idx ON scm_installations (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX scm_installations_org_idx ON scm_installations (org_id) WHERE org_id IS NOT NULL;

-- A repository (on GitHub through an installation, or any path/URL the server can reach) whose
-- tracked branch feeds a project's commits.
CREATE TABLE repo_links (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id        uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind              text NOT NULL CHECK (kind IN ('github', 'local')),
  installation_id   uuid REFERENCES scm_installations (id) ON DELETE CASCADE,
  repo_owner        text,
  repo_name         text,
  -- Where git fetches from: GitHub's clone_url, or the local path / git URL as given.
  source_url        text NOT NULL,
  -- Identity of the repository for "link again returns the same link": github:owner/name
  -- (lower case) or local:<url>.
  source_key        text NOT NULL,
  tracked_branch    text NOT NULL,
  default_branch    text,
  status            text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'ingesting', 'active', 'error', 'suspended')),
  last_ingested_sha text,
  last_ingested_at  timestamptz,
  last_error        text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'github') = (installation_id IS NOT NULL AND repo_owner IS NOT NULL AND repo_name IS NOT NULL)),
  UNIQUE (project_id, source_key, tracked_branch)
);
CREATE INDEX repo_links_installation_idx ON repo_links (installation_id) WHERE installation_id IS NOT NULL;
CREATE INDEX repo_links_github_repo_idx ON repo_links (lower(repo_owner), lower(repo_name)) WHERE kind = 'github';

-- Each delivery is handled once; GitHub redelivers with the same X-GitHub-Delivery.
CREATE TABLE webhook_deliveries (
  delivery_id text PRIMARY KEY,
  event       text NOT NULL,
  action      text,
  outcome     text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- Commits as ingested: the shape the changelog generator reads is
-- {sha, parents, author{name,email,date}, committer{...}, message, changes[[status,path]], tags[]}
-- plus co_authors and pr_number derived from the message at ingest time.
ALTER TABLE commits
  ADD COLUMN repo_link_id     uuid REFERENCES repo_links (id) ON DELETE CASCADE,
  -- UTC offsets (minutes) of the dates as the committer's machine wrote them, so the original
  -- ISO 8601 dates with their offsets can be reproduced.
  ADD COLUMN author_tz_offset    smallint NOT NULL DEFAULT 0,
  ADD COLUMN committer_tz_offset smallint NOT NULL DEFAULT 0,
  -- [[status, path], ...] against the first parent; status A, M, D, T.
  ADD COLUMN changes          jsonb NOT NULL DEFAULT '[]',
  -- [{name, email}, ...] from Co-authored-by: trailers.
  ADD COLUMN co_authors       jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN pr_number        integer,
  ADD COLUMN tags             text[] NOT NULL DEFAULT '{}',
  -- False once a force-push made the commit unreachable from the tracked branch.
  ADD COLUMN reachable        boolean NOT NULL DEFAULT true;

ALTER TABLE commits ADD CONSTRAINT commits_repo_link_sha_key UNIQUE (repo_link_id, sha);
CREATE INDEX commits_project_committed_idx ON commits (project_id, committed_at DESC) WHERE reachable;

-- The signed `state` of the dashboard's "Connect GitHub" round trip: single use, short-lived, and
-- bound to the context that started it.
CREATE TABLE scm_install_states (
  nonce        text PRIMARY KEY,
  context_type text NOT NULL CHECK (context_type IN ('user', 'org')),
  user_id      uuid REFERENCES users (id) ON DELETE CASCADE,
  org_id       uuid REFERENCES organizations (id) ON DELETE CASCADE,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
