-- API keys may carry the `publish` scope (issue #25): with it a CI job publishes and unpublishes
-- entries and release notes, triggers syncs and previews notes through the automation routes. Every
-- existing key stays read-only: publishing is something a key's owner grants, never inherits.
ALTER TABLE api_keys ADD COLUMN can_publish boolean NOT NULL DEFAULT false;
