-- What generation's bulk writes cost PostgreSQL (a full run of a large history writes 12,500
-- entries, 16 MB, in one transaction), with the same stored results.

-- 1. Generation sets occurred_at in its INSERT (the period's start, else the commit's committed_at,
-- looked up in the same statement), by 0023's rule. 0023's trigger ran a PL/pgSQL function and a
-- query for every inserted row (about 7% of PostgreSQL's work in such a run). It stays for
-- every other writer: an INSERT that leaves occurred_at out (imports, plain SQL) still gets it by
-- the same rule, and the column stays NOT NULL; updates of the period or the commit recompute it
-- as before.
DROP TRIGGER changelog_entries_occurred_at ON changelog_entries;

CREATE TRIGGER changelog_entries_occurred_at_insert
  BEFORE INSERT ON changelog_entries
  FOR EACH ROW WHEN (NEW.occurred_at IS NULL) EXECUTE FUNCTION changelog_entries_occurred_at();

CREATE TRIGGER changelog_entries_occurred_at_update
  BEFORE UPDATE OF period_start, commit_id ON changelog_entries
  FOR EACH ROW EXECUTE FUNCTION changelog_entries_occurred_at();

-- 2. 0019's index expression, same result (the index stays valid): a SQL function with an aggregate
-- is never inlined, so every published row written started an executor and an aggregate for it;
-- PL/pgSQL's loop costs a fraction of that.
CREATE OR REPLACE FUNCTION published_components(project uuid, tags text[]) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
DECLARE
  prefix text := project::text || '/';
  tag text;
  out text[] := '{}';
BEGIN
  IF tags IS NOT NULL THEN
    FOREACH tag IN ARRAY tags LOOP
      out := out || (prefix || tag);
    END LOOP;
  END IF;
  RETURN out;
END $$;

-- 3. The large values (a month's rollup runs to tens of kilobytes, a release note's too) compressed
-- with LZ4 rather than pglz: several times faster to compress and to read back. Values stored
-- before keep pglz (both are read alike). Where the server is built without LZ4 (the embedded
-- PGlite), nothing changes.
DO $$
BEGIN
  ALTER TABLE changelog_entries
    ALTER COLUMN content SET COMPRESSION lz4,
    ALTER COLUMN generated_json SET COMPRESSION lz4,
    ALTER COLUMN commit_shas SET COMPRESSION lz4;
  ALTER TABLE release_notes
    ALTER COLUMN content SET COMPRESSION lz4,
    ALTER COLUMN generated_json SET COMPRESSION lz4,
    ALTER COLUMN commit_shas SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
