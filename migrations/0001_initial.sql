-- Accounts, organizations, projects, commits, changelog entries and API keys.
-- gen_random_uuid() is built into PostgreSQL 13+ and PGlite.

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL CHECK (email = lower(email) AND email LIKE '%_@_%'),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  password_hash text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE organizations (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug       text NOT NULL UNIQUE,
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE organization_members (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role            text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX organization_members_user_idx ON organization_members (user_id);

-- A project is owned by exactly one user or one organization; two foreign keys (rather than one
-- polymorphic id) let the database cascade deletes and refuse dangling owners.
CREATE TABLE projects (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_type      text NOT NULL CHECK (owner_type IN ('user', 'org')),
  owner_user_id   uuid REFERENCES users (id) ON DELETE CASCADE,
  owner_org_id    uuid REFERENCES organizations (id) ON DELETE CASCADE,
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  slug            text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) BETWEEN 2 AND 64),
  -- Kept by a trigger so the public listing reports its total without counting every row.
  published_entry_count integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((owner_type = 'user' AND owner_user_id IS NOT NULL AND owner_org_id IS NULL)
      OR (owner_type = 'org' AND owner_org_id IS NOT NULL AND owner_user_id IS NULL))
);
CREATE INDEX projects_owner_user_idx ON projects (owner_user_id) WHERE owner_user_id IS NOT NULL;
CREATE INDEX projects_owner_org_idx ON projects (owner_org_id) WHERE owner_org_id IS NOT NULL;

CREATE TABLE commits (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id      uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  sha             text NOT NULL CHECK (sha ~ '^[0-9a-f]{40}([0-9a-f]{24})?$'),
  parent_shas     text[] NOT NULL DEFAULT '{}',
  author_name     text NOT NULL,
  author_email    text NOT NULL,
  authored_at     timestamptz NOT NULL,
  committer_name  text NOT NULL,
  committer_email text NOT NULL,
  committed_at    timestamptz NOT NULL,
  message         text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, sha)
);

CREATE TABLE changelog_entries (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id       uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  entry_type       text NOT NULL CHECK (entry_type IN ('commit', 'daily', 'weekly', 'monthly')),
  status           text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived')),
  title            text,
  content          text,
  generated_json   jsonb,
  version_label    text,
  team_attribution text,
  component_tags   text[] NOT NULL DEFAULT '{}',
  commit_id        uuid REFERENCES commits (id) ON DELETE SET NULL,
  commit_shas      text[] NOT NULL DEFAULT '{}',
  period_start     timestamptz,
  period_end       timestamptz,
  published_at     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'published') = (published_at IS NOT NULL)),
  CHECK (period_start IS NULL OR period_end IS NULL OR period_start < period_end)
);
-- Serves both public listings and the nested entries of GET /v1/projects: newest first, ties by id.
CREATE INDEX changelog_entries_published_idx
  ON changelog_entries (project_id, published_at DESC, id DESC) WHERE status = 'published';
CREATE INDEX changelog_entries_project_idx ON changelog_entries (project_id, created_at DESC);
CREATE INDEX changelog_entries_commit_idx ON changelog_entries (commit_id) WHERE commit_id IS NOT NULL;

CREATE FUNCTION changelog_entries_count_published() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'published' THEN
    UPDATE projects SET published_entry_count = published_entry_count - 1 WHERE id = OLD.project_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'published' THEN
    UPDATE projects SET published_entry_count = published_entry_count + 1 WHERE id = NEW.project_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER changelog_entries_count_published
  AFTER INSERT OR DELETE OR UPDATE OF status, project_id ON changelog_entries
  FOR EACH ROW EXECUTE FUNCTION changelog_entries_count_published();

-- API keys: only the SHA-256 of the secret is stored, with a short display prefix.
CREATE TABLE api_keys (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  context_type   text NOT NULL CHECK (context_type IN ('user', 'org')),
  user_id        uuid REFERENCES users (id) ON DELETE CASCADE,
  org_id         uuid REFERENCES organizations (id) ON DELETE CASCADE,
  scope          text NOT NULL CHECK (scope IN ('all', 'selected')),
  key_hash       text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  display_prefix text NOT NULL,
  -- After a rotation with a grace period the previous secret keeps working until previous_expires_at.
  previous_key_hash   text UNIQUE CHECK (previous_key_hash ~ '^[0-9a-f]{64}$'),
  previous_expires_at timestamptz,
  created_by     uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  last_used_at   timestamptz,
  expires_at     timestamptz,
  revoked_at     timestamptz,
  CHECK ((context_type = 'user' AND user_id IS NOT NULL AND org_id IS NULL)
      OR (context_type = 'org' AND org_id IS NOT NULL AND user_id IS NULL))
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX api_keys_org_idx ON api_keys (org_id) WHERE org_id IS NOT NULL;

CREATE TABLE api_key_projects (
  api_key_id uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  PRIMARY KEY (api_key_id, project_id)
);
CREATE INDEX api_key_projects_project_idx ON api_key_projects (project_id);
