-- Calibration (issue 24): what the repository's own CHANGELOG.md says about how its maintainers write
-- release notes, read at ingest from the tracked branch's tip (src/generation/calibration.ts). Only the
-- small summary is kept, with the object id of the file it came from, so that an unchanged file is not
-- read again.
ALTER TABLE repo_links ADD COLUMN changelog_blob text;
ALTER TABLE repo_links ADD COLUMN changelog_calibration jsonb;
