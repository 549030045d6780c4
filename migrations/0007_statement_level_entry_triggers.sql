-- Bulk writes (imports, generation, a million-row seed) made the row-level triggers of 0001 and
-- 0005 update the same projects row and notify once per entry. Statement-level triggers over
-- transition tables do one counter update and one notification per project per statement.
-- (PostgreSQL allows transition tables only on single-event triggers, hence three triggers.)

DROP TRIGGER changelog_entries_count_published ON changelog_entries;
DROP FUNCTION changelog_entries_count_published();
DROP TRIGGER changelog_entries_notify ON changelog_entries;

CREATE FUNCTION changelog_entries_after_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE projects p SET published_entry_count = p.published_entry_count + d.n
    FROM (SELECT project_id, count(*) AS n FROM new_rows WHERE status = 'published' GROUP BY project_id) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT DISTINCT project_id FROM new_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE projects p SET published_entry_count = p.published_entry_count - d.n
    FROM (SELECT project_id, count(*) AS n FROM old_rows WHERE status = 'published' GROUP BY project_id) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT DISTINCT project_id FROM old_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  ELSE
    UPDATE projects p SET published_entry_count = p.published_entry_count + d.n
    FROM (
      SELECT project_id, sum(delta) AS n FROM (
        SELECT project_id, 1 AS delta FROM new_rows WHERE status = 'published'
        UNION ALL
        SELECT project_id, -1 AS delta FROM old_rows WHERE status = 'published'
      ) deltas GROUP BY project_id HAVING sum(delta) <> 0
    ) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT project_id FROM new_rows UNION SELECT project_id FROM old_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER changelog_entries_after_insert
  AFTER INSERT ON changelog_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION changelog_entries_after_statement();
CREATE TRIGGER changelog_entries_after_delete
  AFTER DELETE ON changelog_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION changelog_entries_after_statement();
CREATE TRIGGER changelog_entries_after_update
  AFTER UPDATE ON changelog_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION changelog_entries_after_statement();
