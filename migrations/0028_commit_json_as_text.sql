-- A commit's changed paths and co-authors are written whole by ingest (JSON text from git log) and
-- read whole by generation, never queried inside: as jsonb each generation paid for converting the
-- whole history's paths back to text (about 45 ms of the server's CPU for 11k commits and 7.8 MB of
-- paths, before the engine could start). Stored as the JSON text itself, reading them is a copy.
-- Rewrites the commits table once.
ALTER TABLE commits
  ALTER COLUMN changes DROP DEFAULT,
  ALTER COLUMN changes TYPE text USING changes::text,
  ALTER COLUMN changes SET DEFAULT '[]',
  ALTER COLUMN co_authors DROP DEFAULT,
  ALTER COLUMN co_authors TYPE text USING co_authors::text,
  ALTER COLUMN co_authors SET DEFAULT '[]';
