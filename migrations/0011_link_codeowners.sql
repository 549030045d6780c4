-- The CODEOWNERS file at the head of a link's tracked branch, read at each ingest (null: the
-- repository has none). Generation names teams from it when the project maps none itself.
ALTER TABLE repo_links ADD COLUMN codeowners text;
