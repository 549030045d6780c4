-- A deep offset that costs what a first page costs (security issue #21, finding 2).
--
-- After 0029 every public listing is an ordered walk of a key range that stops after the page, but an
-- offset still skipped that many index entries first: `GET /v1/changelog/{slug}?offset=N` (N up to
-- 10,000,000, with or without a cursor and a view), the releases listing's offset, and the public
-- page's `page` (up to 500, with any view and component) each read O(N) rows, a pass over the
-- project's history for a single anonymous request. Here every listing keeps marks: every K-th key of
-- the listing, numbered from its oldest entry (mark `seq` is the entry with seq × K entries older than
-- it). A page at any depth then reads the mark just above it by primary key, and walks fewer than K
-- index entries from there before its first entry; from a cursor, the mark below the cursor and fewer
-- than K entries tell the cursor's position. K is small (16) so that this stays within what the
-- plan test allows a page of one entry (src/changelog/query-plans.int.test.ts).
--
-- Numbered from the oldest, a new entry on top of a listing (nearly every publish) moves no mark: it
-- adds one every K-th time. An entry that comes or goes further down moves the marks above it, so a
-- change rebuilds a listing's marks from the newest mark below its lowest changed key: one walk of
-- the listing's index from there, once per listing per statement (a backdated publish or an
-- unpublish deep in the history walks the entries above it). The marks are derived data kept by
-- statement-level triggers in the transaction that changes the entries, like 0029's listing, so a
-- reader's snapshot always has marks that agree with the entries and the kept totals.
--
-- The listings: a project's published entries (`all`) and those of each type, as the API, the widget
-- and the public page list them (component ''); each component listing of 0029 (component and
-- listing as there); and a project's published release notes.

-- K, one place for the triggers and the reads (inlined as a constant wherever it is used).
CREATE FUNCTION listing_mark_interval() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT 16';

CREATE TABLE published_entry_marks (
  project_id   uuid NOT NULL,
  -- '' for the listings of every component ('' is never a listed tag, 0029), else 0029's component.
  component    text NOT NULL,
  -- 'all', or an entry type.
  listing      text NOT NULL,
  -- The entry with seq × K older entries in the listing.
  seq          integer NOT NULL,
  published_at timestamptz NOT NULL,
  entry_id     uuid NOT NULL,
  PRIMARY KEY (project_id, component, listing, seq)
);
-- The newest mark below a key: the position of a cursor, and where a change's rebuild starts.
CREATE INDEX published_entry_marks_key_idx ON published_entry_marks (project_id, component, listing, published_at, entry_id);

CREATE TABLE published_release_marks (
  project_id uuid NOT NULL,
  seq        integer NOT NULL,
  sort_at    timestamptz NOT NULL,
  release_id uuid NOT NULL,
  PRIMARY KEY (project_id, seq)
);
CREATE INDEX published_release_marks_key_idx ON published_release_marks (project_id, sort_at, release_id);

-- The marks of the listings already there: one pass each (over the published entries twice, 'all'
-- and by type; over 0029's listing; over the published notes).
INSERT INTO published_entry_marks (project_id, component, listing, seq, published_at, entry_id)
SELECT project_id, '', listing, pos / listing_mark_interval(), published_at, id FROM (
  SELECT e.project_id, l.listing, e.published_at, e.id,
    row_number() OVER (PARTITION BY e.project_id, l.listing ORDER BY e.published_at, e.id) - 1 AS pos
  FROM changelog_entries e CROSS JOIN LATERAL (VALUES ('all'), (e.entry_type)) AS l(listing)
  WHERE e.status = 'published'
) w
WHERE pos % listing_mark_interval() = 0;

INSERT INTO published_entry_marks (project_id, component, listing, seq, published_at, entry_id)
SELECT project_id, component, listing, pos / listing_mark_interval(), published_at, entry_id FROM (
  SELECT c.project_id, c.component, c.listing, c.published_at, c.entry_id,
    row_number() OVER (PARTITION BY c.project_id, c.component, c.listing ORDER BY c.published_at, c.entry_id) - 1 AS pos
  FROM published_entry_components c
) w
WHERE pos % listing_mark_interval() = 0;

INSERT INTO published_release_marks (project_id, seq, sort_at, release_id)
SELECT project_id, pos / listing_mark_interval(), sort_at, id FROM (
  SELECT n.project_id, n.sort_at, n.id, row_number() OVER (PARTITION BY n.project_id ORDER BY n.sort_at, n.id) - 1 AS pos
  FROM release_notes n WHERE n.status = 'published'
) w
WHERE pos % listing_mark_interval() = 0;

-- The marks of one listing from its lowest changed key up: those at or above it go, and the walk from
-- the newest one left (or from the oldest entry) numbers the entries again and marks every K-th.
CREATE FUNCTION published_entry_marks_rebuild(of_project uuid, of_component text, of_listing text, from_at timestamptz, from_id uuid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k constant integer := listing_mark_interval();
  base_seq integer;
  base_at timestamptz;
  base_id uuid;
BEGIN
  SELECT m.seq, m.published_at, m.entry_id INTO base_seq, base_at, base_id FROM published_entry_marks m
  WHERE m.project_id = of_project AND m.component = of_component AND m.listing = of_listing
  ORDER BY m.seq DESC LIMIT 1;
  -- Nothing to delete when the change is above the newest mark (a publish on top of the listing).
  IF (base_at, base_id) >= (from_at, from_id) THEN
    DELETE FROM published_entry_marks m
    WHERE m.project_id = of_project AND m.component = of_component AND m.listing = of_listing
      AND (m.published_at, m.entry_id) >= (from_at, from_id);
    SELECT m.seq, m.published_at, m.entry_id INTO base_seq, base_at, base_id FROM published_entry_marks m
    WHERE m.project_id = of_project AND m.component = of_component AND m.listing = of_listing
    ORDER BY m.seq DESC LIMIT 1;
  END IF;
  -- No mark left: from the listing's oldest entry, position 0 (the bounds below then take every key).
  base_at := coalesce(base_at, '-infinity');
  base_id := coalesce(base_id, '00000000-0000-0000-0000-000000000000');
  IF of_component <> '' THEN
    INSERT INTO published_entry_marks (project_id, component, listing, seq, published_at, entry_id)
    SELECT of_project, of_component, of_listing, w.pos / k, w.published_at, w.entry_id FROM (
      SELECT x.published_at, x.entry_id, coalesce(base_seq * k, 0) + row_number() OVER (ORDER BY x.published_at, x.entry_id) - 1 AS pos
      FROM published_entry_components x
      WHERE x.project_id = of_project AND x.component = of_component AND x.listing = of_listing
        AND (x.published_at, x.entry_id) >= (base_at, base_id)
    ) w
    WHERE w.pos % k = 0 AND w.pos > coalesce(base_seq * k, -1);
  ELSIF of_listing = 'all' THEN
    INSERT INTO published_entry_marks (project_id, component, listing, seq, published_at, entry_id)
    SELECT of_project, '', 'all', w.pos / k, w.published_at, w.id FROM (
      SELECT x.published_at, x.id, coalesce(base_seq * k, 0) + row_number() OVER (ORDER BY x.published_at, x.id) - 1 AS pos
      FROM changelog_entries x
      WHERE x.project_id = of_project AND x.status = 'published' AND (x.published_at, x.id) >= (base_at, base_id)
    ) w
    WHERE w.pos % k = 0 AND w.pos > coalesce(base_seq * k, -1);
  ELSE
    INSERT INTO published_entry_marks (project_id, component, listing, seq, published_at, entry_id)
    SELECT of_project, '', of_listing, w.pos / k, w.published_at, w.id FROM (
      SELECT x.published_at, x.id, coalesce(base_seq * k, 0) + row_number() OVER (ORDER BY x.published_at, x.id) - 1 AS pos
      FROM changelog_entries x
      WHERE x.project_id = of_project AND x.status = 'published' AND x.entry_type = of_listing
        AND (x.published_at, x.id) >= (base_at, base_id)
    ) w
    WHERE w.pos % k = 0 AND w.pos > coalesce(base_seq * k, -1);
  END IF;
END $$;

-- The listings of every component ('all' and each type) whose keys a statement on the entries added or
-- removed, each rebuilt once from its lowest such key. An update that leaves a row's listed key as it
-- was (an edit of its content, or of its tags: 0029's listing follows those) changes nothing here.
CREATE FUNCTION published_entry_marks_follow_entries() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  projects_of uuid[];
  listings_of text[];
  ats_of timestamptz[];
  ids_of uuid[];
  changed record;
BEGIN
  -- Each event's trigger sees only its own transition tables, so only the gathering differs.
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.project_id), array_agg(l.listing), array_agg(n.published_at), array_agg(n.id)
      INTO projects_of, listings_of, ats_of, ids_of
    FROM new_rows n CROSS JOIN LATERAL (VALUES ('all'), (n.entry_type)) AS l(listing)
    WHERE n.status = 'published';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.project_id), array_agg(l.listing), array_agg(o.published_at), array_agg(o.id)
      INTO projects_of, listings_of, ats_of, ids_of
    FROM old_rows o CROSS JOIN LATERAL (VALUES ('all'), (o.entry_type)) AS l(listing)
    WHERE o.status = 'published';
  ELSE
    SELECT array_agg(project_id), array_agg(listing), array_agg(published_at), array_agg(id)
      INTO projects_of, listings_of, ats_of, ids_of
    FROM (
      (SELECT o.project_id, l.listing, o.published_at, o.id
       FROM old_rows o CROSS JOIN LATERAL (VALUES ('all'), (o.entry_type)) AS l(listing) WHERE o.status = 'published'
       EXCEPT
       SELECT n.project_id, l.listing, n.published_at, n.id
       FROM new_rows n CROSS JOIN LATERAL (VALUES ('all'), (n.entry_type)) AS l(listing) WHERE n.status = 'published')
      UNION ALL
      (SELECT n.project_id, l.listing, n.published_at, n.id
       FROM new_rows n CROSS JOIN LATERAL (VALUES ('all'), (n.entry_type)) AS l(listing) WHERE n.status = 'published'
       EXCEPT
       SELECT o.project_id, l.listing, o.published_at, o.id
       FROM old_rows o CROSS JOIN LATERAL (VALUES ('all'), (o.entry_type)) AS l(listing) WHERE o.status = 'published')
    ) moved;
  END IF;
  FOR changed IN
    SELECT DISTINCT ON (project_id, listing) project_id, listing, published_at, id
    FROM unnest(projects_of, listings_of, ats_of, ids_of) AS r(project_id, listing, published_at, id)
    ORDER BY project_id, listing, published_at, id
  LOOP
    PERFORM published_entry_marks_rebuild(changed.project_id, '', changed.listing, changed.published_at, changed.id);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER published_entry_marks_insert
  AFTER INSERT ON changelog_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_marks_follow_entries();
CREATE TRIGGER published_entry_marks_update
  AFTER UPDATE ON changelog_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_marks_follow_entries();
CREATE TRIGGER published_entry_marks_delete
  AFTER DELETE ON changelog_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_marks_follow_entries();

-- The component listings follow 0029's listing itself, which its triggers only insert into and delete
-- from (a changed entry's rows go and come back), each statement rebuilding the listings it touched.
CREATE FUNCTION published_entry_marks_follow_components() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR changed IN
      SELECT DISTINCT ON (project_id, component, listing) project_id, component, listing, published_at, entry_id
      FROM new_rows ORDER BY project_id, component, listing, published_at, entry_id
    LOOP
      PERFORM published_entry_marks_rebuild(changed.project_id, changed.component, changed.listing, changed.published_at, changed.entry_id);
    END LOOP;
  ELSE
    FOR changed IN
      SELECT DISTINCT ON (project_id, component, listing) project_id, component, listing, published_at, entry_id
      FROM old_rows ORDER BY project_id, component, listing, published_at, entry_id
    LOOP
      PERFORM published_entry_marks_rebuild(changed.project_id, changed.component, changed.listing, changed.published_at, changed.entry_id);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER published_entry_marks_components_insert
  AFTER INSERT ON published_entry_components REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_marks_follow_components();
CREATE TRIGGER published_entry_marks_components_delete
  AFTER DELETE ON published_entry_components REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_marks_follow_components();

CREATE FUNCTION published_entry_marks_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE published_entry_marks;
  RETURN NULL;
END $$;

CREATE TRIGGER published_entry_marks_truncate
  AFTER TRUNCATE ON changelog_entries
  FOR EACH STATEMENT EXECUTE FUNCTION published_entry_marks_truncate();

-- The release listing, the same way: keyed (sort_at, id), the order of release_notes_published_idx.
CREATE FUNCTION published_release_marks_rebuild(of_project uuid, from_at timestamptz, from_id uuid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k constant integer := listing_mark_interval();
  base_seq integer;
  base_at timestamptz;
  base_id uuid;
BEGIN
  SELECT m.seq, m.sort_at, m.release_id INTO base_seq, base_at, base_id FROM published_release_marks m
  WHERE m.project_id = of_project ORDER BY m.seq DESC LIMIT 1;
  IF (base_at, base_id) >= (from_at, from_id) THEN
    DELETE FROM published_release_marks m
    WHERE m.project_id = of_project AND (m.sort_at, m.release_id) >= (from_at, from_id);
    SELECT m.seq, m.sort_at, m.release_id INTO base_seq, base_at, base_id FROM published_release_marks m
    WHERE m.project_id = of_project ORDER BY m.seq DESC LIMIT 1;
  END IF;
  base_at := coalesce(base_at, '-infinity');
  base_id := coalesce(base_id, '00000000-0000-0000-0000-000000000000');
  INSERT INTO published_release_marks (project_id, seq, sort_at, release_id)
  SELECT of_project, w.pos / k, w.sort_at, w.id FROM (
    SELECT x.sort_at, x.id, coalesce(base_seq * k, 0) + row_number() OVER (ORDER BY x.sort_at, x.id) - 1 AS pos
    FROM release_notes x
    WHERE x.project_id = of_project AND x.status = 'published' AND (x.sort_at, x.id) >= (base_at, base_id)
  ) w
  WHERE w.pos % k = 0 AND w.pos > coalesce(base_seq * k, -1);
END $$;

CREATE FUNCTION published_release_marks_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  projects_of uuid[];
  ats_of timestamptz[];
  ids_of uuid[];
  changed record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(project_id), array_agg(sort_at), array_agg(id) INTO projects_of, ats_of, ids_of
    FROM new_rows WHERE status = 'published';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(project_id), array_agg(sort_at), array_agg(id) INTO projects_of, ats_of, ids_of
    FROM old_rows WHERE status = 'published';
  ELSE
    SELECT array_agg(project_id), array_agg(sort_at), array_agg(id) INTO projects_of, ats_of, ids_of
    FROM (
      (SELECT project_id, sort_at, id FROM old_rows WHERE status = 'published'
       EXCEPT SELECT project_id, sort_at, id FROM new_rows WHERE status = 'published')
      UNION ALL
      (SELECT project_id, sort_at, id FROM new_rows WHERE status = 'published'
       EXCEPT SELECT project_id, sort_at, id FROM old_rows WHERE status = 'published')
    ) moved;
  END IF;
  FOR changed IN
    SELECT DISTINCT ON (project_id) project_id, sort_at, id
    FROM unnest(projects_of, ats_of, ids_of) AS r(project_id, sort_at, id)
    ORDER BY project_id, sort_at, id
  LOOP
    PERFORM published_release_marks_rebuild(changed.project_id, changed.sort_at, changed.id);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER published_release_marks_insert
  AFTER INSERT ON release_notes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_release_marks_follow();
CREATE TRIGGER published_release_marks_update
  AFTER UPDATE ON release_notes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_release_marks_follow();
CREATE TRIGGER published_release_marks_delete
  AFTER DELETE ON release_notes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION published_release_marks_follow();

CREATE FUNCTION published_release_marks_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE published_release_marks;
  RETURN NULL;
END $$;

CREATE TRIGGER published_release_marks_truncate
  AFTER TRUNCATE ON release_notes
  FOR EACH STATEMENT EXECUTE FUNCTION published_release_marks_truncate();
