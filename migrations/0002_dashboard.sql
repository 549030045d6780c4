-- Dashboard accounts: sessions, sign-in failures (rate limiting), organization invites, and the
-- installation owner (the first account that signs up with a password).

ALTER TABLE users ADD COLUMN is_instance_owner boolean NOT NULL DEFAULT false;
-- At most one installation owner, even when two first sign-ups race.
CREATE UNIQUE INDEX users_one_instance_owner ON users (is_instance_owner) WHERE is_instance_owner;

-- Only the SHA-256 of the session token is stored: a copy of this table signs nobody in.
CREATE TABLE sessions (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash   text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  user_agent   text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- One row per failed sign-in; counted over a sliding window per e-mail and per address.
CREATE TABLE sign_in_failures (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email      text NOT NULL,
  address    text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_email_idx ON sign_in_failures (email, created_at);
CREATE INDEX sign_in_failures_address_idx ON sign_in_failures (address, created_at);

-- Single-use, expiring invitation links into an organization; the token itself is never stored.
CREATE TABLE organization_invites (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  token_hash      text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  role            text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_by      uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz,
  used_by         uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX organization_invites_org_idx ON organization_invites (organization_id);
