-- What a commit changes of the files in which a repository's maintainers write its release notes
-- themselves, read at ingest with the manifests (src/git/manifest-log.ts) so that generation never reads blobs:
-- `release_config`: `.github/release.yml` (or `.yaml`) as the commit left it, raw text of at most 64 KiB,
-- '' when the commit deletes it, NULL when the commit does not change it (or ingest did not read it);
-- `fragments`: JSON text of the change fragments the commit adds (`[{"path": …, "text": …}]`: changesets,
-- towncrier), NULL for none. Parsed by the engine (engine/release-config.ts, engine/fragments.ts); written and
-- read whole, never queried inside, like `dependencies` (0036).
ALTER TABLE commits ADD COLUMN release_config text;
ALTER TABLE commits ADD COLUMN fragments text;
