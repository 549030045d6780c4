-- The review queue lists entries newest first by their own date: a period's start, or the commit's
-- date for a commit entry (whose period is empty), not when generation stored the row (a first sync
-- stores years of history within a second). That date lives in another table for commit entries,
-- so it is kept in a column here, where an index can serve keyset pages of thousands of entries.
-- (Number 0023: other branches may take 0021 and 0022.)
ALTER TABLE changelog_entries ADD COLUMN occurred_at timestamptz;

-- Any write that sets the period or the commit goes through this rule (generation, imports, plain SQL).
CREATE FUNCTION changelog_entries_occurred_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.period_start IS NOT NULL THEN
    NEW.occurred_at := NEW.period_start;
  ELSE
    NEW.occurred_at := COALESCE((SELECT committed_at FROM commits WHERE id = NEW.commit_id), NEW.created_at, now());
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER changelog_entries_occurred_at
  BEFORE INSERT OR UPDATE OF period_start, commit_id ON changelog_entries
  FOR EACH ROW EXECUTE FUNCTION changelog_entries_occurred_at();

-- Existing rows, without the triggers of 0007/0009/0012/0017: filling in a column no reader of
-- entries shows is not a change to announce (webhooks, change notifications, Last-Modified, caches).
ALTER TABLE changelog_entries DISABLE TRIGGER USER;
UPDATE changelog_entries e
SET occurred_at = COALESCE(e.period_start, (SELECT c.committed_at FROM commits c WHERE c.id = e.commit_id), e.created_at);
ALTER TABLE changelog_entries ENABLE TRIGGER USER;
ALTER TABLE changelog_entries ALTER COLUMN occurred_at SET NOT NULL;

-- Keyset pages (date, id) of a project, all statuses or one (the queue opens on drafts).
CREATE INDEX changelog_entries_review_idx ON changelog_entries (project_id, occurred_at DESC, id DESC);
CREATE INDEX changelog_entries_review_status_idx ON changelog_entries (project_id, status, occurred_at DESC, id DESC);
