-- Account security: sign-in attempts are reserved atomically in counters (one row per key) instead
-- of being counted after the fact, and the installation's first account needs a setup link.

-- One row per limiter key: 'pair:<address> <email>', 'account:<email>' or 'address:<address>'.
-- A reservation increments `failures` in one conditional upsert before the password is checked, so
-- concurrent attempts can never all pass the check; a successful sign-in gives its reservation back.
DROP TABLE sign_in_failures;
CREATE TABLE sign_in_limits (
  key               text PRIMARY KEY,
  failures          integer NOT NULL DEFAULT 0,
  window_started_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at   timestamptz NOT NULL DEFAULT now(),
  -- Pairs only: when this address last signed in to this account (exempts it from the address limit).
  succeeded_at      timestamptz
);
CREATE INDEX sign_in_limits_window_idx ON sign_in_limits (window_started_at);

-- Single-use, expiring links that set an account's password: with user_id NULL, the link printed at
-- start-up that creates the installation's first account; otherwise one made by `changelog users invite`.
-- Only the token's SHA-256 is stored.
CREATE TABLE account_setup_tokens (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  user_id    uuid REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  used_by    uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX account_setup_tokens_expires_idx ON account_setup_tokens (expires_at);
