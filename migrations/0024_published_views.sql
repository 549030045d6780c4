-- One view at a time in the API too (GET /v1/changelog/{slug}?view=…, and the widget that reads it):
-- a listing of one entry type, newest first, with its own total.
--
-- Its pages walk an index of that type's published entries. Without it, a type that is rare among a
-- project's entries (a monthly rollup for every few thousand commit entries) is found by walking the
-- published index and visiting each row for its type: a page of monthly entries read hundreds of
-- thousands of rows. Same shape as changelog_entries_published_idx (0013), the type after the project.
CREATE INDEX changelog_entries_published_type_idx
  ON changelog_entries (project_id, entry_type, published_at DESC, id DESC) INCLUDE (row_version) WHERE status = 'published';

-- The total of each view, and which types a project has published (its automatic default view),
-- kept beside published_entry_count by the same statement-level trigger rather than counted per request.
ALTER TABLE projects
  ADD COLUMN published_commit_count integer NOT NULL DEFAULT 0,
  ADD COLUMN published_daily_count integer NOT NULL DEFAULT 0,
  ADD COLUMN published_weekly_count integer NOT NULL DEFAULT 0,
  ADD COLUMN published_monthly_count integer NOT NULL DEFAULT 0;

-- Names none of the columns that the projects triggers watch (0017, 0022): filling in counts is no
-- change to announce, and moves no Last-Modified.
UPDATE projects p SET
  published_commit_count = c.commit_n,
  published_daily_count = c.daily_n,
  published_weekly_count = c.weekly_n,
  published_monthly_count = c.monthly_n
FROM (
  SELECT project_id,
    count(*) FILTER (WHERE entry_type = 'commit') AS commit_n,
    count(*) FILTER (WHERE entry_type = 'daily') AS daily_n,
    count(*) FILTER (WHERE entry_type = 'weekly') AS weekly_n,
    count(*) FILTER (WHERE entry_type = 'monthly') AS monthly_n
  FROM changelog_entries WHERE status = 'published' GROUP BY project_id
) c
WHERE p.id = c.project_id;

-- 0017's function with the counts of each type. An update that changes a published entry's type
-- moves it from one count to the other (old rows subtract, new rows add, per type).
CREATE OR REPLACE FUNCTION changelog_entries_after_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- One element per row the statement touched: its project, its type and what it does to that type's
  -- published count (+1, -1, or 0 for a row that is not published, whose project is still announced).
  projects_of uuid[];
  types_of text[];
  deltas int[];
  changed record;
BEGIN
  -- Each event's trigger sees only its own transition tables, so only the gathering differs.
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(project_id), array_agg(entry_type), array_agg(CASE WHEN status = 'published' THEN 1 ELSE 0 END)
      INTO projects_of, types_of, deltas FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(project_id), array_agg(entry_type), array_agg(CASE WHEN status = 'published' THEN -1 ELSE 0 END)
      INTO projects_of, types_of, deltas FROM old_rows;
  ELSE
    SELECT array_agg(project_id), array_agg(entry_type), array_agg(delta) INTO projects_of, types_of, deltas FROM (
      SELECT project_id, entry_type, CASE WHEN status = 'published' THEN 1 ELSE 0 END AS delta FROM new_rows
      UNION ALL
      SELECT project_id, entry_type, CASE WHEN status = 'published' THEN -1 ELSE 0 END FROM old_rows
    ) touched;
  END IF;
  -- A project with a published row on either side: its counts move and so does published_changed_at
  -- (a published entry edited in place changes what readers see without changing a count).
  UPDATE projects p SET
    published_entry_count = p.published_entry_count + d.n,
    published_commit_count = p.published_commit_count + d.commit_n,
    published_daily_count = p.published_daily_count + d.daily_n,
    published_weekly_count = p.published_weekly_count + d.weekly_n,
    published_monthly_count = p.published_monthly_count + d.monthly_n,
    published_changed_at = clock_timestamp()
  FROM (
    SELECT project_id, sum(delta) AS n,
      coalesce(sum(delta) FILTER (WHERE entry_type = 'commit'), 0) AS commit_n,
      coalesce(sum(delta) FILTER (WHERE entry_type = 'daily'), 0) AS daily_n,
      coalesce(sum(delta) FILTER (WHERE entry_type = 'weekly'), 0) AS weekly_n,
      coalesce(sum(delta) FILTER (WHERE entry_type = 'monthly'), 0) AS monthly_n
    FROM unnest(projects_of, types_of, deltas) AS r(project_id, entry_type, delta)
    GROUP BY project_id
    HAVING count(*) FILTER (WHERE delta <> 0) > 0
  ) d
  WHERE p.id = d.project_id;
  FOR changed IN SELECT DISTINCT project_id FROM unnest(projects_of) AS r(project_id) LOOP
    PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
  END LOOP;
  RETURN NULL;
END $$;
