-- Proof of who may claim a GitHub App installation, and replay protection for webhook deliveries.

-- The GitHub user a context proved to be through OAuth (user authorization). Only GitHub's user id
-- and login are kept: no token, so a database leak hands out no access to GitHub.
CREATE TABLE scm_identities (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  context_type   text NOT NULL CHECK (context_type IN ('user', 'org')),
  user_id        uuid UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  org_id         uuid UNIQUE REFERENCES organizations (id) ON DELETE CASCADE,
  github_user_id bigint NOT NULL CHECK (github_user_id > 0),
  github_login   text NOT NULL,
  verified_at    timestamptz NOT NULL DEFAULT now(),
  CHECK ((context_type = 'user' AND user_id IS NOT NULL AND org_id IS NULL)
      OR (context_type = 'org' AND org_id IS NOT NULL AND user_id IS NULL))
);

-- SHA-256 of each signed webhook body handled recently, with the delivery that brought it: the same
-- bytes under another X-GitHub-Delivery are a replay (only the body is signed, not the headers).
CREATE TABLE webhook_payload_digests (
  digest      text PRIMARY KEY,
  delivery_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_payload_digests_received_idx ON webhook_payload_digests (received_at);
