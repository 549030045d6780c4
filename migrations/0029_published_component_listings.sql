-- Public reads whose cost does not depend on the planner's statistics (security issue #21, finding 2).
--
-- 1. The component filter of the public page (`/c/{slug}?component=X`, anonymous, any X). 0019's GIN
-- index was never used where it mattered: PGlite never runs ANALYZE and PostgreSQL's default
-- selectivity for `@>` made both prefer walking the project's published entries newest first and
-- testing each row, so a component that matches nothing read every published entry of the project
-- (1-2 s for 100k entries, on the embedded database's event loop). Even when picked, a bitmap scan
-- reads every match before sorting them. Here each published entry has one row per component it is
-- tagged with and per listing it appears in ('all', and its own type), keyed by
-- (project, component, listing, published_at, id): a page of any filter is an equality on the key's
-- first three columns followed by an ordered range, so the only plan is a walk of that range that
-- stops after the page, whatever the statistics say. The rows are derived data, written by the
-- statement-level triggers below in the transaction that changes the entries (no foreign keys: they
-- would cost a lookup per row written, and the triggers already follow every change, deletes of a
-- project's entries included).
--
-- Only tags a filter can name are listed: at most 100 characters, the limit of the page's
-- `component` parameter (src/changelog/page/public-page.routes.ts). A longer tag could never be
-- asked for, and a key past the B-tree's size limit (about 2.7 kB) would make the write that
-- carries it fail.
CREATE TABLE published_entry_components (
  project_id   uuid NOT NULL,
  component    text NOT NULL,
  -- 'all', or the entry's type: the page lists one view at a time (migrations/0022, 0024).
  listing      text NOT NULL,
  published_at timestamptz NOT NULL,
  entry_id     uuid NOT NULL
);

-- An entry's tags as listed: each once (an array may repeat one), empty and over-long ones left out.
CREATE FUNCTION listed_components(tags text[]) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT DISTINCT t FROM unnest(tags) AS t WHERE char_length(t) BETWEEN 1 AND 100 $$;

-- One statement over the existing published entries (no sort of them all: tags are made unique per
-- entry), the key built after it.
INSERT INTO published_entry_components (project_id, component, listing, published_at, entry_id)
SELECT e.project_id, t.component, l.listing, e.published_at, e.id
FROM changelog_entries e
CROSS JOIN LATERAL listed_components(e.component_tags) AS t(component)
CROSS JOIN LATERAL (VALUES ('all'), (e.entry_type)) AS l(listing)
WHERE e.status = 'published';

ALTER TABLE published_entry_components ADD PRIMARY KEY (project_id, component, listing, published_at, entry_id);

-- The rows of `rows` (published entries as a transition table shows them) as listed above.
-- Statement-level like the other entry triggers (0007, 0024): one pass per statement, however many rows.
CREATE FUNCTION published_entry_components_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each event's trigger sees only its own transition tables, so only the gathering differs. An
  -- update touches the listing only for rows whose listed facts changed (most updates rewrite content).
  IF TG_OP = 'DELETE' THEN
    DELETE FROM published_entry_components c
    USING old_rows o
      CROSS JOIN LATERAL unnest(o.component_tags) AS t(component)
      CROSS JOIN LATERAL (VALUES ('all'), (o.entry_type)) AS l(listing)
    WHERE o.status = 'published'
      AND (c.project_id, c.component, c.listing, c.published_at, c.entry_id) = (o.project_id, t.component, l.listing, o.published_at, o.id);
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM published_entry_components c
    USING old_rows o JOIN new_rows n ON n.id = o.id
      CROSS JOIN LATERAL unnest(o.component_tags) AS t(component)
      CROSS JOIN LATERAL (VALUES ('all'), (o.entry_type)) AS l(listing)
    WHERE o.status = 'published'
      AND (o.status, o.published_at, o.component_tags, o.entry_type, o.project_id)
        IS DISTINCT FROM (n.status, n.published_at, n.component_tags, n.entry_type, n.project_id)
      AND (c.project_id, c.component, c.listing, c.published_at, c.entry_id) = (o.project_id, t.component, l.listing, o.published_at, o.id);
    INSERT INTO published_entry_components (project_id, component, listing, published_at, entry_id)
    SELECT n.project_id, t.component, l.listing, n.published_at, n.id
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL listed_components(n.component_tags) AS t(component)
    CROSS JOIN LATERAL (VALUES ('all'), (n.entry_type)) AS l(listing)
    WHERE n.status = 'published'
      AND (o.status, o.published_at, o.component_tags, o.entry_type, o.project_id)
        IS DISTINCT FROM (n.status, n.published_at, n.component_tags, n.entry_type, n.project_id);
  ELSE
    INSERT INTO published_entry_components (project_id, component, listing, published_at, entry_id)
    SELECT n.project_id, t.component, l.listing, n.published_at, n.id
    FROM new_rows n
    CROSS JOIN LATERAL listed_components(n.component_tags) AS t(component)
    CROSS JOIN LATERAL (VALUES ('all'), (n.entry_type)) AS l(listing)
    WHERE n.status = 'published';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER published_entry_components_insert
  AFTER INSERT ON changelog_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_components_sync();
CREATE TRIGGER published_entry_components_update
  AFTER UPDATE ON changelog_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_components_sync();
CREATE TRIGGER published_entry_components_delete
  AFTER DELETE ON changelog_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_components_sync();

CREATE FUNCTION published_entry_components_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE published_entry_components;
  RETURN NULL;
END $$;

CREATE TRIGGER published_entry_components_truncate
  AFTER TRUNCATE ON changelog_entries
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_components_truncate();

-- 0019's index (and the function only it used) serve no query now; every published row written paid
-- for them.
DROP INDEX changelog_entries_published_components_idx;
DROP FUNCTION published_components(uuid, text[]);

-- 2. The release listing's total: counted per request (every published note of the project, each
-- a visit to its row on a table never vacuumed) and now kept beside published_entry_count, by the
-- statement-level trigger that already moves published_changed_at (0021), in the same UPDATE.
ALTER TABLE projects ADD COLUMN published_release_count integer NOT NULL DEFAULT 0;

-- Names none of the columns the projects triggers watch (0017, 0022): no change to announce.
UPDATE projects p SET published_release_count = c.n
FROM (SELECT project_id, count(*) AS n FROM release_notes WHERE status = 'published' GROUP BY project_id) c
WHERE p.id = c.project_id;

CREATE OR REPLACE FUNCTION release_notes_after_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  -- Per project: the change to its count of published notes, and whether a published note is
  -- among the rows (its published_changed_at then moves, as in 0021, even when the count does not).
  IF TG_OP = 'INSERT' THEN
    UPDATE projects p SET published_release_count = p.published_release_count + d.n, published_changed_at = clock_timestamp()
    FROM (SELECT project_id, count(*) AS n FROM new_rows WHERE status = 'published' GROUP BY project_id) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT DISTINCT project_id FROM new_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE projects p SET published_release_count = p.published_release_count - d.n, published_changed_at = clock_timestamp()
    FROM (SELECT project_id, count(*) AS n FROM old_rows WHERE status = 'published' GROUP BY project_id) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT DISTINCT project_id FROM old_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  ELSE
    UPDATE projects p SET published_release_count = p.published_release_count + d.n, published_changed_at = clock_timestamp()
    FROM (
      SELECT project_id, sum(delta) AS n FROM (
        SELECT project_id, 1 AS delta FROM new_rows WHERE status = 'published'
        UNION ALL
        SELECT project_id, -1 FROM old_rows WHERE status = 'published'
      ) touched GROUP BY project_id
    ) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT project_id FROM new_rows UNION SELECT project_id FROM old_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
