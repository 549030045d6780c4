-- What a commit changes in the dependencies its package manifests declare (src/git/manifests.ts:
-- `{"runtime": [...], "dev": [...]}`), read at ingest from the mirror, so that generation tells a
-- runtime bump (listed under Dependencies) from a development one (hidden) without reading blobs.
-- NULL when ingest did not read the manifests (commits stored before this column, or a read that ran
-- out of its budget): the engine then goes by words and paths. JSON text like `changes` (0028): written
-- and read whole, never queried inside.
ALTER TABLE commits ADD COLUMN dependencies text;
