-- The schema after every migration in this folder, written by `npm run schema:dump` (pg_dump --schema-only
-- of a freshly migrated PostgreSQL database). Generated: do not edit; change the schema with a new migration.
--
-- PostgreSQL database dump
--

--
-- Name: changelog_entries_after_statement(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.changelog_entries_after_statement() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: changelog_entries_new_version(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.changelog_entries_new_version() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  NEW.row_version := nextval('changelog_entry_versions');
  RETURN NEW;
END $$;

--
-- Name: changelog_entries_occurred_at(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.changelog_entries_occurred_at() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF NEW.period_start IS NOT NULL THEN
    NEW.occurred_at := NEW.period_start;
  ELSE
    NEW.occurred_at := COALESCE((SELECT committed_at FROM commits WHERE id = NEW.commit_id), NEW.created_at, now());
  END IF;
  RETURN NEW;
END $$;

--
-- Name: changelog_entries_webhook_events(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.changelog_entries_webhook_events() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  changes jsonb;
BEGIN
  -- Most installations and bulk writes have no endpoint to tell: one probe, nothing built.
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_object('type', 'entry.published', 'entry', to_jsonb(n))) INTO changes
    FROM new_rows n WHERE n.status = 'published'
      AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project_id = n.project_id);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_build_object('type', 'entry.unpublished', 'entry', to_jsonb(o))) INTO changes
    FROM old_rows o WHERE o.status = 'published'
      AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project_id = o.project_id);
  ELSE
    SELECT jsonb_agg(jsonb_build_object(
             'type', CASE
                       WHEN o.status <> 'published' AND n.status = 'published' THEN 'entry.published'
                       WHEN o.status = 'published' AND n.status <> 'published' THEN 'entry.unpublished'
                       ELSE 'entry.updated'
                     END,
             'entry', to_jsonb(n))) INTO changes
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (o.status = 'published' OR n.status = 'published')
      AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project_id = n.project_id)
      AND ROW(o.status, o.title, o.content, o.generated_json, o.version_label, o.team_attribution, o.component_tags,
              o.commit_id, o.commit_shas, o.period_start, o.period_end, o.published_at, o.entry_type, o.project_id)
          IS DISTINCT FROM
          ROW(n.status, n.title, n.content, n.generated_json, n.version_label, n.team_attribution, n.component_tags,
              n.commit_id, n.commit_shas, n.period_start, n.period_end, n.published_at, n.entry_type, n.project_id);
  END IF;
  IF changes IS NULL THEN
    RETURN NULL;
  END IF;

  WITH c AS (
    SELECT (x->'entry'->>'project_id')::uuid AS project_id, (x->'entry'->>'id')::uuid AS entry_id, x->>'type' AS type,
           (x->'entry') - 'generation_key'::text - 'fingerprint'::text - 'edited_at'::text - 'pending_regeneration'::text AS entry
    FROM jsonb_array_elements(changes) AS x
  ), events AS (
    INSERT INTO webhook_events (project_id, type, entry_id, entry)
    SELECT c.project_id, c.type, c.entry_id, c.entry FROM c
    WHERE EXISTS (SELECT 1 FROM projects p WHERE p.id = c.project_id)
      AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project_id = c.project_id AND c.type = ANY (w.event_types))
    RETURNING id, project_id, type
  )
  INSERT INTO webhook_event_deliveries (event_id, endpoint_id)
  SELECT ev.id, w.id FROM events ev JOIN webhook_endpoints w ON w.project_id = ev.project_id AND ev.type = ANY (w.event_types);
  RETURN NULL;
END $$;

--
-- Name: listed_components(text[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.listed_components(tags text[]) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT DISTINCT t FROM unnest(tags) AS t WHERE char_length(t) BETWEEN 1 AND 100 $$;

--
-- Name: listing_mark_interval(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.listing_mark_interval() RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT 16$$;

--
-- Name: notify_changelog_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.notify_changelog_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF TG_TABLE_NAME = 'changelog_entries' THEN
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('changelog_changes', 'project:' || OLD.project_id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('changelog_changes', 'project:' || NEW.project_id); END IF;
  ELSIF TG_TABLE_NAME = 'projects' THEN
    PERFORM pg_notify('changelog_changes', 'projects');
    IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('changelog_changes', 'project:' || OLD.id); END IF;
  ELSE
    PERFORM pg_notify('changelog_changes', 'keys');
  END IF;
  RETURN NULL;
END $$;

--
-- Name: projects_published_changed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.projects_published_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF NEW.published_changed_at IS NOT DISTINCT FROM OLD.published_changed_at
     AND (NEW.name, NEW.slug, NEW.theme_color, NEW.logo_url, NEW.public_view)
       IS NOT DISTINCT FROM (OLD.name, OLD.slug, OLD.theme_color, OLD.logo_url, OLD.public_view) THEN
    RETURN NEW;
  END IF;
  IF OLD.published_changed_xact IS NOT DISTINCT FROM pg_current_xact_id() THEN
    NEW.published_changed_at := GREATEST(OLD.published_changed_at, clock_timestamp());
  ELSE
    NEW.published_changed_at := GREATEST(clock_timestamp(), date_trunc('second', OLD.published_changed_at) + interval '1 second');
    NEW.published_changed_xact := pg_current_xact_id();
  END IF;
  RETURN NEW;
END $$;

--
-- Name: published_entry_components_sync(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_entry_components_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: published_entry_components_truncate(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_entry_components_truncate() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  TRUNCATE published_entry_components;
  RETURN NULL;
END $$;

--
-- Name: published_entry_marks_follow_components(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_entry_marks_follow_components() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: published_entry_marks_follow_entries(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_entry_marks_follow_entries() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: published_entry_marks_rebuild(uuid, text, text, timestamp with time zone, uuid); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_entry_marks_rebuild(of_project uuid, of_component text, of_listing text, from_at timestamp with time zone, from_id uuid) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
  k constant integer := listing_mark_interval();
  base_seq integer;
  base_at timestamptz;
  base_id uuid;
BEGIN
  -- Wait for every other transaction that changed this project's published entries (0037).
  PERFORM FROM projects p WHERE p.id = of_project FOR NO KEY UPDATE;
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

--
-- Name: published_entry_marks_truncate(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_entry_marks_truncate() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  TRUNCATE published_entry_marks;
  RETURN NULL;
END $$;

--
-- Name: published_release_marks_follow(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_release_marks_follow() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: published_release_marks_rebuild(uuid, timestamp with time zone, uuid); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_release_marks_rebuild(of_project uuid, from_at timestamp with time zone, from_id uuid) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
  k constant integer := listing_mark_interval();
  base_seq integer;
  base_at timestamptz;
  base_id uuid;
BEGIN
  -- Wait for every other transaction that changed this project's published notes (0037).
  PERFORM FROM projects p WHERE p.id = of_project FOR NO KEY UPDATE;
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

--
-- Name: published_release_marks_truncate(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.published_release_marks_truncate() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  TRUNCATE published_release_marks;
  RETURN NULL;
END $$;

--
-- Name: release_notes_after_statement(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.release_notes_after_statement() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: release_notes_github_syncs(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.release_notes_github_syncs() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  -- Only the statement's own projects are looked at, through the index above: one tenant turning
  -- publishing on no longer makes every other tenant's writes scan the table.
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM github_link_publishing s WHERE (s.releases OR s.changelog_pr)
                   AND s.project_id IN (SELECT DISTINCT o.project_id FROM old_rows o)) THEN
      RETURN NULL;
    END IF;
  ELSIF NOT EXISTS (SELECT 1 FROM github_link_publishing s WHERE (s.releases OR s.changelog_pr)
                    AND s.project_id IN (SELECT DISTINCT n.project_id FROM new_rows n)) THEN
    RETURN NULL;
  END IF;
  -- CHANGELOG.md: any published note that changed, the Unreleased one included.
  IF TG_OP = 'INSERT' THEN
    UPDATE github_link_publishing s SET changelog_wanted = s.changelog_wanted + 1
    WHERE s.changelog_pr AND s.project_id IN (SELECT n.project_id FROM new_rows n WHERE n.status = 'published');
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE github_link_publishing s SET changelog_wanted = s.changelog_wanted + 1
    WHERE s.changelog_pr AND s.project_id IN (SELECT o.project_id FROM old_rows o WHERE o.status = 'published')
      AND EXISTS (SELECT 1 FROM repo_links l WHERE l.id = s.link_id);
  ELSE
    UPDATE github_link_publishing s SET changelog_wanted = s.changelog_wanted + 1
    WHERE s.changelog_pr AND s.project_id IN (
      SELECT n.project_id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (o.status = 'published' OR n.status = 'published')
        AND ROW(o.status, o.tag, o.title, o.content, o.generated_json, o.introduction, o.released_at)
            IS DISTINCT FROM ROW(n.status, n.tag, n.title, n.content, n.generated_json, n.introduction, n.released_at));
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO github_release_syncs (link_id, tag)
    SELECT s.link_id, n.tag FROM new_rows n JOIN github_link_publishing s ON s.project_id = n.project_id AND s.releases
    JOIN repo_links l ON l.id = s.link_id
    WHERE n.status = 'published' AND n.tag IS NOT NULL
    ON CONFLICT (link_id, tag) DO UPDATE SET wanted = github_release_syncs.wanted + 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO github_release_syncs (link_id, tag)
    SELECT s.link_id, o.tag FROM old_rows o JOIN github_link_publishing s ON s.project_id = o.project_id AND s.releases
    JOIN repo_links l ON l.id = s.link_id
    WHERE o.status = 'published' AND o.tag IS NOT NULL
    ON CONFLICT (link_id, tag) DO UPDATE SET wanted = github_release_syncs.wanted + 1;
  ELSE
    INSERT INTO github_release_syncs (link_id, tag)
    SELECT DISTINCT s.link_id, t.tag
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL (VALUES (o.tag), (n.tag)) AS t(tag)
    JOIN github_link_publishing s ON s.project_id = n.project_id AND s.releases
    JOIN repo_links l ON l.id = s.link_id
    WHERE (o.status = 'published' OR n.status = 'published') AND t.tag IS NOT NULL
      AND ROW(o.status, o.tag, o.title, o.content, o.generated_json, o.introduction, o.prerelease, o.previous_tag, o.commit_shas)
          IS DISTINCT FROM
          ROW(n.status, n.tag, n.title, n.content, n.generated_json, n.introduction, n.prerelease, n.previous_tag, n.commit_shas)
    ON CONFLICT (link_id, tag) DO UPDATE SET wanted = github_release_syncs.wanted + 1;
  END IF;
  RETURN NULL;
END $$;

--
-- Name: account_setup_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_setup_tokens (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    token_hash text NOT NULL,
    user_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    used_by uuid,
    CONSTRAINT account_setup_tokens_token_hash_check CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text))
);

--
-- Name: api_key_projects; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_key_projects (
    api_key_id uuid NOT NULL,
    project_id uuid NOT NULL
);

--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_keys (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    context_type text NOT NULL,
    user_id uuid,
    org_id uuid,
    scope text NOT NULL,
    key_hash text NOT NULL,
    display_prefix text NOT NULL,
    previous_key_hash text,
    previous_expires_at timestamp with time zone,
    created_by uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone,
    expires_at timestamp with time zone,
    revoked_at timestamp with time zone,
    can_publish boolean DEFAULT false NOT NULL,
    CONSTRAINT api_keys_check CHECK ((((context_type = 'user'::text) AND (user_id IS NOT NULL) AND (org_id IS NULL)) OR ((context_type = 'org'::text) AND (org_id IS NOT NULL) AND (user_id IS NULL)))),
    CONSTRAINT api_keys_context_type_check CHECK ((context_type = ANY (ARRAY['user'::text, 'org'::text]))),
    CONSTRAINT api_keys_key_hash_check CHECK ((key_hash ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT api_keys_name_check CHECK (((length(name) >= 1) AND (length(name) <= 100))),
    CONSTRAINT api_keys_previous_key_hash_check CHECK ((previous_key_hash ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT api_keys_scope_check CHECK ((scope = ANY (ARRAY['all'::text, 'selected'::text])))
);

--
-- Name: changelog_entry_versions; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.changelog_entry_versions
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: changelog_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.changelog_entries (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    project_id uuid NOT NULL,
    entry_type text NOT NULL,
    status text DEFAULT 'draft'::text NOT NULL,
    title text,
    content text,
    generated_json jsonb,
    version_label text,
    team_attribution text,
    component_tags text[] DEFAULT '{}'::text[] NOT NULL,
    commit_id uuid,
    commit_shas text[] DEFAULT '{}'::text[] NOT NULL,
    period_start timestamp with time zone,
    period_end timestamp with time zone,
    published_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    generation_key text,
    fingerprint text,
    edited_at timestamp with time zone,
    pending_regeneration boolean DEFAULT false NOT NULL,
    row_version bigint DEFAULT nextval('public.changelog_entry_versions'::regclass) NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    history_at timestamp with time zone,
    unpublished_at timestamp with time zone,
    CONSTRAINT changelog_entries_check CHECK (((status = 'published'::text) = (published_at IS NOT NULL))),
    CONSTRAINT changelog_entries_check1 CHECK (((period_start IS NULL) OR (period_end IS NULL) OR (period_start < period_end))),
    CONSTRAINT changelog_entries_entry_type_check CHECK ((entry_type = ANY (ARRAY['commit'::text, 'daily'::text, 'weekly'::text, 'monthly'::text]))),
    CONSTRAINT changelog_entries_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'published'::text, 'archived'::text])))
);
ALTER TABLE ONLY public.changelog_entries ALTER COLUMN content SET COMPRESSION lz4;
ALTER TABLE ONLY public.changelog_entries ALTER COLUMN generated_json SET COMPRESSION lz4;
ALTER TABLE ONLY public.changelog_entries ALTER COLUMN commit_shas SET COMPRESSION lz4;

--
-- Name: changelog_entry_revisions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.changelog_entry_revisions (
    entry_id uuid NOT NULL,
    project_id uuid NOT NULL,
    record jsonb NOT NULL,
    fingerprint text NOT NULL,
    proposed_at timestamp with time zone DEFAULT now() NOT NULL,
    discarded_at timestamp with time zone
);

--
-- Name: commits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.commits (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    project_id uuid NOT NULL,
    sha text NOT NULL,
    parent_shas text[] DEFAULT '{}'::text[] NOT NULL,
    author_name text NOT NULL,
    author_email text NOT NULL,
    authored_at timestamp with time zone NOT NULL,
    committer_name text NOT NULL,
    committer_email text NOT NULL,
    committed_at timestamp with time zone NOT NULL,
    message text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    repo_link_id uuid,
    author_tz_offset smallint DEFAULT 0 NOT NULL,
    committer_tz_offset smallint DEFAULT 0 NOT NULL,
    changes text DEFAULT '[]'::text NOT NULL,
    co_authors text DEFAULT '[]'::text NOT NULL,
    pr_number integer,
    tags text[] DEFAULT '{}'::text[] NOT NULL,
    reachable boolean DEFAULT true NOT NULL,
    on_tracked_branch boolean DEFAULT true NOT NULL,
    dependencies text,
    release_config text,
    fragments text,
    CONSTRAINT commits_sha_check CHECK ((sha ~ '^[0-9a-f]{40}([0-9a-f]{24})?$'::text))
);

--
-- Name: github_link_publishing; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.github_link_publishing (
    link_id uuid NOT NULL,
    project_id uuid NOT NULL,
    releases boolean DEFAULT false NOT NULL,
    pr_checks text DEFAULT 'off'::text NOT NULL,
    pr_checks_error text,
    pr_checks_at timestamp with time zone,
    changelog_pr boolean DEFAULT false NOT NULL,
    changelog_wanted integer DEFAULT 0 NOT NULL,
    changelog_queued integer DEFAULT 0 NOT NULL,
    changelog_synced integer DEFAULT 0 NOT NULL,
    changelog_pr_number integer,
    changelog_synced_at timestamp with time zone,
    changelog_error text,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT github_link_publishing_pr_checks_check CHECK ((pr_checks = ANY (ARRAY['off'::text, 'report'::text, 'blocking'::text])))
);

--
-- Name: github_pr_syncs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.github_pr_syncs (
    link_id uuid NOT NULL,
    watermark timestamp with time zone,
    walk_cursor text,
    walk_top timestamp with time zone,
    generate_pending boolean DEFAULT false NOT NULL,
    rewalk boolean DEFAULT false NOT NULL,
    retry_at timestamp with time zone,
    last_error text,
    last_synced_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: github_pull_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.github_pull_requests (
    link_id uuid NOT NULL,
    number integer NOT NULL,
    title text NOT NULL,
    body text DEFAULT ''::text NOT NULL,
    labels text[] DEFAULT '{}'::text[] NOT NULL,
    author_login text,
    author_is_bot boolean DEFAULT false NOT NULL,
    merged_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    merge_sha text,
    commit_shas text[] DEFAULT '{}'::text[] NOT NULL,
    fetched_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: github_release_syncs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.github_release_syncs (
    link_id uuid NOT NULL,
    tag text NOT NULL,
    wanted integer DEFAULT 1 NOT NULL,
    queued integer DEFAULT 0 NOT NULL,
    synced integer DEFAULT 0 NOT NULL,
    release_id bigint,
    created_by_service boolean DEFAULT false NOT NULL,
    create_sent_at timestamp with time zone,
    last_synced_at timestamp with time zone,
    last_attempt_at timestamp with time zone,
    last_error text
);

--
-- Name: organization_invites; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.organization_invites (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    organization_id uuid NOT NULL,
    token_hash text NOT NULL,
    role text NOT NULL,
    created_by uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    used_by uuid,
    CONSTRAINT organization_invites_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'admin'::text, 'member'::text]))),
    CONSTRAINT organization_invites_token_hash_check CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text))
);

--
-- Name: organization_members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.organization_members (
    organization_id uuid NOT NULL,
    user_id uuid NOT NULL,
    role text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT organization_members_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'admin'::text, 'member'::text])))
);

--
-- Name: organizations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.organizations (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    slug text NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT organizations_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);

--
-- Name: projects; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.projects (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    owner_type text NOT NULL,
    owner_user_id uuid,
    owner_org_id uuid,
    name text NOT NULL,
    slug text NOT NULL,
    published_entry_count integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    generation_settings jsonb DEFAULT '{}'::jsonb NOT NULL,
    theme_color text,
    logo_url text,
    published_changed_at timestamp with time zone DEFAULT now() NOT NULL,
    published_changed_xact xid8,
    public_view text,
    published_commit_count integer DEFAULT 0 NOT NULL,
    published_daily_count integer DEFAULT 0 NOT NULL,
    published_weekly_count integer DEFAULT 0 NOT NULL,
    published_monthly_count integer DEFAULT 0 NOT NULL,
    published_release_count integer DEFAULT 0 NOT NULL,
    CONSTRAINT projects_check CHECK ((((owner_type = 'user'::text) AND (owner_user_id IS NOT NULL) AND (owner_org_id IS NULL)) OR ((owner_type = 'org'::text) AND (owner_org_id IS NOT NULL) AND (owner_user_id IS NULL)))),
    CONSTRAINT projects_logo_url_check CHECK (((logo_url ~ '^https://'::text) AND (length(logo_url) <= 2000))),
    CONSTRAINT projects_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
    CONSTRAINT projects_owner_type_check CHECK ((owner_type = ANY (ARRAY['user'::text, 'org'::text]))),
    CONSTRAINT projects_public_view_check CHECK ((public_view = ANY (ARRAY['releases'::text, 'weekly'::text, 'monthly'::text, 'daily'::text, 'commit'::text, 'all'::text]))),
    CONSTRAINT projects_slug_check CHECK (((slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'::text) AND ((length(slug) >= 2) AND (length(slug) <= 64)))),
    CONSTRAINT projects_theme_color_check CHECK ((theme_color ~ '^#[0-9a-f]{6}$'::text))
);

--
-- Name: published_entry_components; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.published_entry_components (
    project_id uuid NOT NULL,
    component text NOT NULL,
    listing text NOT NULL,
    published_at timestamp with time zone NOT NULL,
    entry_id uuid NOT NULL
);

--
-- Name: published_entry_marks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.published_entry_marks (
    project_id uuid NOT NULL,
    component text NOT NULL,
    listing text NOT NULL,
    seq integer NOT NULL,
    published_at timestamp with time zone NOT NULL,
    entry_id uuid NOT NULL
);

--
-- Name: published_release_marks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.published_release_marks (
    project_id uuid NOT NULL,
    seq integer NOT NULL,
    sort_at timestamp with time zone NOT NULL,
    release_id uuid NOT NULL
);

--
-- Name: release_note_edits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.release_note_edits (
    release_id uuid NOT NULL,
    project_id uuid NOT NULL,
    edits jsonb NOT NULL,
    generated jsonb NOT NULL,
    edited_at timestamp with time zone DEFAULT now() NOT NULL,
    edited_by uuid
);

--
-- Name: release_note_revisions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.release_note_revisions (
    release_id uuid NOT NULL,
    project_id uuid NOT NULL,
    record jsonb NOT NULL,
    fingerprint text NOT NULL,
    proposed_at timestamp with time zone DEFAULT now() NOT NULL,
    discarded_at timestamp with time zone
);

--
-- Name: release_note_summaries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.release_note_summaries (
    release_id uuid NOT NULL,
    project_id uuid NOT NULL,
    fingerprint text NOT NULL,
    model text NOT NULL,
    status text NOT NULL,
    summary jsonb NOT NULL,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    decided_at timestamp with time zone,
    decided_by uuid,
    CONSTRAINT release_note_summaries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'accepted'::text, 'dismissed'::text, 'failed'::text])))
);

--
-- Name: release_notes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.release_notes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    project_id uuid NOT NULL,
    key text NOT NULL,
    tag text,
    package text,
    version text,
    prerelease boolean DEFAULT false NOT NULL,
    previous_tag text,
    released_at timestamp with time zone,
    title text NOT NULL,
    content text DEFAULT ''::text NOT NULL,
    generated_json jsonb NOT NULL,
    team_attribution text,
    component_tags text[] DEFAULT '{}'::text[] NOT NULL,
    commit_shas text[] DEFAULT '{}'::text[] NOT NULL,
    fingerprint text,
    status text DEFAULT 'draft'::text NOT NULL,
    published_at timestamp with time zone,
    sort_at timestamp with time zone GENERATED ALWAYS AS (COALESCE(released_at, 'infinity'::timestamp with time zone)) STORED,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    history_at timestamp with time zone,
    unpublished_at timestamp with time zone,
    introduction text,
    CONSTRAINT release_notes_check CHECK (((status = 'published'::text) = (published_at IS NOT NULL))),
    CONSTRAINT release_notes_check1 CHECK (((tag IS NULL) = (key = 'release:unreleased'::text))),
    CONSTRAINT release_notes_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'published'::text, 'archived'::text])))
);
ALTER TABLE ONLY public.release_notes ALTER COLUMN content SET COMPRESSION lz4;
ALTER TABLE ONLY public.release_notes ALTER COLUMN generated_json SET COMPRESSION lz4;
ALTER TABLE ONLY public.release_notes ALTER COLUMN commit_shas SET COMPRESSION lz4;

--
-- Name: repo_links; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.repo_links (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    project_id uuid NOT NULL,
    kind text NOT NULL,
    installation_id uuid,
    repo_owner text,
    repo_name text,
    source_url text NOT NULL,
    source_key text NOT NULL,
    tracked_branch text NOT NULL,
    default_branch text,
    status text DEFAULT 'pending'::text NOT NULL,
    last_ingested_sha text,
    last_ingested_at timestamp with time zone,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    codeowners text,
    sync_state text DEFAULT 'idle'::text NOT NULL,
    sync_done integer DEFAULT 0 NOT NULL,
    sync_total integer DEFAULT 0 NOT NULL,
    last_synced_at timestamp with time zone,
    last_sync_added integer,
    restricted boolean DEFAULT false NOT NULL,
    ingest_lease uuid,
    ingest_lease_until timestamp with time zone,
    release_branches text[] DEFAULT '{}'::text[] NOT NULL,
    release_heads jsonb DEFAULT '{}'::jsonb NOT NULL,
    tags_digest text,
    changelog_blob text,
    changelog_calibration jsonb,
    CONSTRAINT repo_links_check CHECK (((kind = 'github'::text) = ((installation_id IS NOT NULL) AND (repo_owner IS NOT NULL) AND (repo_name IS NOT NULL)))),
    CONSTRAINT repo_links_kind_check CHECK ((kind = ANY (ARRAY['github'::text, 'local'::text]))),
    CONSTRAINT repo_links_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'ingesting'::text, 'active'::text, 'error'::text, 'suspended'::text]))),
    CONSTRAINT repo_links_sync_state_check CHECK ((sync_state = ANY (ARRAY['idle'::text, 'queued'::text, 'running'::text])))
);

--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: scm_identities; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scm_identities (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    context_type text NOT NULL,
    user_id uuid,
    org_id uuid,
    github_user_id bigint NOT NULL,
    github_login text NOT NULL,
    verified_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT scm_identities_check CHECK ((((context_type = 'user'::text) AND (user_id IS NOT NULL) AND (org_id IS NULL)) OR ((context_type = 'org'::text) AND (org_id IS NOT NULL) AND (user_id IS NULL)))),
    CONSTRAINT scm_identities_context_type_check CHECK ((context_type = ANY (ARRAY['user'::text, 'org'::text]))),
    CONSTRAINT scm_identities_github_user_id_check CHECK ((github_user_id > 0))
);

--
-- Name: scm_install_states; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scm_install_states (
    nonce text NOT NULL,
    context_type text NOT NULL,
    user_id uuid,
    org_id uuid,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT scm_install_states_context_type_check CHECK ((context_type = ANY (ARRAY['user'::text, 'org'::text])))
);

--
-- Name: scm_installations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scm_installations (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    provider text DEFAULT 'github'::text NOT NULL,
    scm_installation_id bigint NOT NULL,
    context_type text NOT NULL,
    user_id uuid,
    org_id uuid,
    account_login text NOT NULL,
    account_type text NOT NULL,
    setup_action text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT scm_installations_check CHECK ((((context_type = 'user'::text) AND (user_id IS NOT NULL) AND (org_id IS NULL)) OR ((context_type = 'org'::text) AND (org_id IS NOT NULL) AND (user_id IS NULL)))),
    CONSTRAINT scm_installations_context_type_check CHECK ((context_type = ANY (ARRAY['user'::text, 'org'::text]))),
    CONSTRAINT scm_installations_provider_check CHECK ((provider = 'github'::text)),
    CONSTRAINT scm_installations_scm_installation_id_check CHECK ((scm_installation_id > 0)),
    CONSTRAINT scm_installations_status_check CHECK ((status = ANY (ARRAY['active'::text, 'suspended'::text, 'deleted'::text])))
);

--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    token_hash text NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    user_agent text,
    CONSTRAINT sessions_token_hash_check CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text))
);

--
-- Name: sign_in_limits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sign_in_limits (
    key text NOT NULL,
    failures integer DEFAULT 0 NOT NULL,
    window_started_at timestamp with time zone DEFAULT now() NOT NULL,
    last_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    succeeded_at timestamp with time zone
);

--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    email text NOT NULL,
    name text NOT NULL,
    password_hash text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    is_instance_owner boolean DEFAULT false NOT NULL,
    CONSTRAINT users_email_check CHECK (((email = lower(email)) AND (email ~~ '%_@_%'::text))),
    CONSTRAINT users_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);

--
-- Name: webhook_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_deliveries (
    delivery_id text NOT NULL,
    event text NOT NULL,
    action text,
    outcome text NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: webhook_delivery_attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_delivery_attempts (
    id bigint NOT NULL,
    delivery_id uuid NOT NULL,
    attempt integer NOT NULL,
    status_code integer,
    duration_ms integer NOT NULL,
    error text,
    response_excerpt text,
    attempted_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: webhook_delivery_attempts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.webhook_delivery_attempts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.webhook_delivery_attempts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: webhook_endpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_endpoints (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    project_id uuid NOT NULL,
    url text NOT NULL,
    event_types text[] NOT NULL,
    secret text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhook_endpoints_event_types_check CHECK ((cardinality(event_types) > 0)),
    CONSTRAINT webhook_endpoints_url_check CHECK ((length(url) <= 2048))
);

--
-- Name: webhook_event_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_event_deliveries (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    event_id uuid NOT NULL,
    endpoint_id uuid NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    queued_at timestamp with time zone,
    last_attempt_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhook_event_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text])))
);

--
-- Name: webhook_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_events (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    project_id uuid NOT NULL,
    type text NOT NULL,
    entry_id uuid,
    entry jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: webhook_payload_digests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_payload_digests (
    digest text NOT NULL,
    delivery_id text NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: account_setup_tokens account_setup_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_setup_tokens
    ADD CONSTRAINT account_setup_tokens_pkey PRIMARY KEY (id);

--
-- Name: account_setup_tokens account_setup_tokens_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_setup_tokens
    ADD CONSTRAINT account_setup_tokens_token_hash_key UNIQUE (token_hash);

--
-- Name: api_key_projects api_key_projects_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key_projects
    ADD CONSTRAINT api_key_projects_pkey PRIMARY KEY (api_key_id, project_id);

--
-- Name: api_keys api_keys_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);

--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

--
-- Name: api_keys api_keys_previous_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_previous_key_hash_key UNIQUE (previous_key_hash);

--
-- Name: changelog_entries changelog_entries_generation_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.changelog_entries
    ADD CONSTRAINT changelog_entries_generation_key_key UNIQUE (project_id, generation_key);

--
-- Name: changelog_entries changelog_entries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.changelog_entries
    ADD CONSTRAINT changelog_entries_pkey PRIMARY KEY (id);

--
-- Name: changelog_entry_revisions changelog_entry_revisions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.changelog_entry_revisions
    ADD CONSTRAINT changelog_entry_revisions_pkey PRIMARY KEY (entry_id);

--
-- Name: commits commits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commits
    ADD CONSTRAINT commits_pkey PRIMARY KEY (id);

--
-- Name: commits commits_project_id_sha_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commits
    ADD CONSTRAINT commits_project_id_sha_key UNIQUE (project_id, sha);

--
-- Name: commits commits_repo_link_sha_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commits
    ADD CONSTRAINT commits_repo_link_sha_key UNIQUE (repo_link_id, sha);

--
-- Name: github_link_publishing github_link_publishing_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_link_publishing
    ADD CONSTRAINT github_link_publishing_pkey PRIMARY KEY (link_id);

--
-- Name: github_pr_syncs github_pr_syncs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_pr_syncs
    ADD CONSTRAINT github_pr_syncs_pkey PRIMARY KEY (link_id);

--
-- Name: github_pull_requests github_pull_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_pull_requests
    ADD CONSTRAINT github_pull_requests_pkey PRIMARY KEY (link_id, number);

--
-- Name: github_release_syncs github_release_syncs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_release_syncs
    ADD CONSTRAINT github_release_syncs_pkey PRIMARY KEY (link_id, tag);

--
-- Name: organization_invites organization_invites_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organization_invites
    ADD CONSTRAINT organization_invites_pkey PRIMARY KEY (id);

--
-- Name: organization_invites organization_invites_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organization_invites
    ADD CONSTRAINT organization_invites_token_hash_key UNIQUE (token_hash);

--
-- Name: organization_members organization_members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organization_members
    ADD CONSTRAINT organization_members_pkey PRIMARY KEY (organization_id, user_id);

--
-- Name: organizations organizations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organizations
    ADD CONSTRAINT organizations_pkey PRIMARY KEY (id);

--
-- Name: organizations organizations_slug_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organizations
    ADD CONSTRAINT organizations_slug_key UNIQUE (slug);

--
-- Name: projects projects_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projects
    ADD CONSTRAINT projects_pkey PRIMARY KEY (id);

--
-- Name: projects projects_slug_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projects
    ADD CONSTRAINT projects_slug_key UNIQUE (slug);

--
-- Name: published_entry_components published_entry_components_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.published_entry_components
    ADD CONSTRAINT published_entry_components_pkey PRIMARY KEY (project_id, component, listing, published_at, entry_id);

--
-- Name: published_entry_marks published_entry_marks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.published_entry_marks
    ADD CONSTRAINT published_entry_marks_pkey PRIMARY KEY (project_id, component, listing, seq);

--
-- Name: published_release_marks published_release_marks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.published_release_marks
    ADD CONSTRAINT published_release_marks_pkey PRIMARY KEY (project_id, seq);

--
-- Name: release_note_edits release_note_edits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_edits
    ADD CONSTRAINT release_note_edits_pkey PRIMARY KEY (release_id);

--
-- Name: release_note_revisions release_note_revisions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_revisions
    ADD CONSTRAINT release_note_revisions_pkey PRIMARY KEY (release_id);

--
-- Name: release_note_summaries release_note_summaries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_summaries
    ADD CONSTRAINT release_note_summaries_pkey PRIMARY KEY (release_id);

--
-- Name: release_notes release_notes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_notes
    ADD CONSTRAINT release_notes_pkey PRIMARY KEY (id);

--
-- Name: release_notes release_notes_project_id_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_notes
    ADD CONSTRAINT release_notes_project_id_key_key UNIQUE (project_id, key);

--
-- Name: repo_links repo_links_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.repo_links
    ADD CONSTRAINT repo_links_pkey PRIMARY KEY (id);

--
-- Name: repo_links repo_links_project_id_source_key_tracked_branch_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.repo_links
    ADD CONSTRAINT repo_links_project_id_source_key_tracked_branch_key UNIQUE (project_id, source_key, tracked_branch);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);

--
-- Name: scm_identities scm_identities_org_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_identities
    ADD CONSTRAINT scm_identities_org_id_key UNIQUE (org_id);

--
-- Name: scm_identities scm_identities_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_identities
    ADD CONSTRAINT scm_identities_pkey PRIMARY KEY (id);

--
-- Name: scm_identities scm_identities_user_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_identities
    ADD CONSTRAINT scm_identities_user_id_key UNIQUE (user_id);

--
-- Name: scm_install_states scm_install_states_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_install_states
    ADD CONSTRAINT scm_install_states_pkey PRIMARY KEY (nonce);

--
-- Name: scm_installations scm_installations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_installations
    ADD CONSTRAINT scm_installations_pkey PRIMARY KEY (id);

--
-- Name: scm_installations scm_installations_scm_installation_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_installations
    ADD CONSTRAINT scm_installations_scm_installation_id_key UNIQUE (scm_installation_id);

--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);

--
-- Name: sessions sessions_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_token_hash_key UNIQUE (token_hash);

--
-- Name: sign_in_limits sign_in_limits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sign_in_limits
    ADD CONSTRAINT sign_in_limits_pkey PRIMARY KEY (key);

--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

--
-- Name: webhook_deliveries webhook_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (delivery_id);

--
-- Name: webhook_delivery_attempts webhook_delivery_attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_delivery_attempts
    ADD CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (id);

--
-- Name: webhook_endpoints webhook_endpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id);

--
-- Name: webhook_event_deliveries webhook_event_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_event_deliveries
    ADD CONSTRAINT webhook_event_deliveries_pkey PRIMARY KEY (id);

--
-- Name: webhook_events webhook_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_events
    ADD CONSTRAINT webhook_events_pkey PRIMARY KEY (id);

--
-- Name: webhook_payload_digests webhook_payload_digests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_payload_digests
    ADD CONSTRAINT webhook_payload_digests_pkey PRIMARY KEY (digest);

--
-- Name: account_setup_tokens_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX account_setup_tokens_expires_idx ON public.account_setup_tokens USING btree (expires_at);

--
-- Name: api_key_projects_project_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_key_projects_project_idx ON public.api_key_projects USING btree (project_id);

--
-- Name: api_keys_org_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_keys_org_idx ON public.api_keys USING btree (org_id) WHERE (org_id IS NOT NULL);

--
-- Name: api_keys_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_keys_user_idx ON public.api_keys USING btree (user_id) WHERE (user_id IS NOT NULL);

--
-- Name: changelog_entries_commit_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX changelog_entries_commit_idx ON public.changelog_entries USING btree (commit_id) WHERE (commit_id IS NOT NULL);

--
-- Name: changelog_entries_published_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX changelog_entries_published_idx ON public.changelog_entries USING btree (project_id, published_at DESC, id DESC) INCLUDE (row_version) WHERE (status = 'published'::text);

--
-- Name: changelog_entries_published_type_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX changelog_entries_published_type_idx ON public.changelog_entries USING btree (project_id, entry_type, published_at DESC, id DESC) INCLUDE (row_version) WHERE (status = 'published'::text);

--
-- Name: changelog_entries_review_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX changelog_entries_review_idx ON public.changelog_entries USING btree (project_id, occurred_at DESC, id DESC);

--
-- Name: changelog_entries_review_status_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX changelog_entries_review_status_idx ON public.changelog_entries USING btree (project_id, status, occurred_at DESC, id DESC);

--
-- Name: changelog_entry_revisions_waiting_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX changelog_entry_revisions_waiting_idx ON public.changelog_entry_revisions USING btree (project_id) WHERE (discarded_at IS NULL);

--
-- Name: commits_project_committed_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX commits_project_committed_idx ON public.commits USING btree (project_id, committed_at DESC) WHERE reachable;

--
-- Name: commits_release_only_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX commits_release_only_idx ON public.commits USING btree (repo_link_id) WHERE (NOT on_tracked_branch);

--
-- Name: commits_tagged_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX commits_tagged_idx ON public.commits USING btree (repo_link_id) WHERE (cardinality(tags) > 0);

--
-- Name: github_link_publishing_active_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX github_link_publishing_active_idx ON public.github_link_publishing USING btree (project_id) WHERE (releases OR changelog_pr);

--
-- Name: github_pull_requests_merge_sha_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX github_pull_requests_merge_sha_idx ON public.github_pull_requests USING btree (link_id, merge_sha) WHERE (merge_sha IS NOT NULL);

--
-- Name: github_release_syncs_behind_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX github_release_syncs_behind_idx ON public.github_release_syncs USING btree (link_id) WHERE (synced < wanted);

--
-- Name: organization_invites_org_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX organization_invites_org_idx ON public.organization_invites USING btree (organization_id);

--
-- Name: organization_members_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX organization_members_user_idx ON public.organization_members USING btree (user_id);

--
-- Name: projects_owner_org_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX projects_owner_org_idx ON public.projects USING btree (owner_org_id) WHERE (owner_org_id IS NOT NULL);

--
-- Name: projects_owner_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX projects_owner_user_idx ON public.projects USING btree (owner_user_id) WHERE (owner_user_id IS NOT NULL);

--
-- Name: published_entry_marks_key_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX published_entry_marks_key_idx ON public.published_entry_marks USING btree (project_id, component, listing, published_at, entry_id);

--
-- Name: published_release_marks_key_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX published_release_marks_key_idx ON public.published_release_marks USING btree (project_id, sort_at, release_id);

--
-- Name: release_note_edits_project_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX release_note_edits_project_idx ON public.release_note_edits USING btree (project_id);

--
-- Name: release_note_revisions_waiting_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX release_note_revisions_waiting_idx ON public.release_note_revisions USING btree (project_id) WHERE (discarded_at IS NULL);

--
-- Name: release_note_summaries_project_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX release_note_summaries_project_idx ON public.release_note_summaries USING btree (project_id);

--
-- Name: release_notes_published_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX release_notes_published_idx ON public.release_notes USING btree (project_id, sort_at DESC, id DESC) WHERE (status = 'published'::text);

--
-- Name: release_notes_published_tag_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX release_notes_published_tag_idx ON public.release_notes USING btree (project_id, tag) WHERE (status = 'published'::text);

--
-- Name: repo_links_github_repo_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX repo_links_github_repo_idx ON public.repo_links USING btree (lower(repo_owner), lower(repo_name)) WHERE (kind = 'github'::text);

--
-- Name: repo_links_installation_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX repo_links_installation_idx ON public.repo_links USING btree (installation_id) WHERE (installation_id IS NOT NULL);

--
-- Name: repo_links_local_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX repo_links_local_idx ON public.repo_links USING btree (created_at) WHERE (kind = 'local'::text);

--
-- Name: scm_installations_org_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scm_installations_org_idx ON public.scm_installations USING btree (org_id) WHERE (org_id IS NOT NULL);

--
-- Name: scm_installations_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX scm_installations_user_idx ON public.scm_installations USING btree (user_id) WHERE (user_id IS NOT NULL);

--
-- Name: sessions_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_expires_idx ON public.sessions USING btree (expires_at);

--
-- Name: sessions_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_user_idx ON public.sessions USING btree (user_id);

--
-- Name: sign_in_limits_window_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sign_in_limits_window_idx ON public.sign_in_limits USING btree (window_started_at);

--
-- Name: users_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_email_key ON public.users USING btree (email);

--
-- Name: users_one_instance_owner; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_one_instance_owner ON public.users USING btree (is_instance_owner) WHERE is_instance_owner;

--
-- Name: webhook_delivery_attempts_delivery_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_delivery_attempts_delivery_idx ON public.webhook_delivery_attempts USING btree (delivery_id, attempt);

--
-- Name: webhook_endpoints_project_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_endpoints_project_idx ON public.webhook_endpoints USING btree (project_id);

--
-- Name: webhook_event_deliveries_endpoint_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_event_deliveries_endpoint_idx ON public.webhook_event_deliveries USING btree (endpoint_id, created_at DESC);

--
-- Name: webhook_event_deliveries_in_flight_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_event_deliveries_in_flight_idx ON public.webhook_event_deliveries USING btree (endpoint_id, queued_at) WHERE ((queued_at IS NOT NULL) AND (status = 'pending'::text));

--
-- Name: webhook_event_deliveries_waiting_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_event_deliveries_waiting_idx ON public.webhook_event_deliveries USING btree (endpoint_id, created_at, id) WHERE (queued_at IS NULL);

--
-- Name: webhook_payload_digests_received_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_payload_digests_received_idx ON public.webhook_payload_digests USING btree (received_at);

--
-- Name: api_key_projects api_key_projects_notify; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER api_key_projects_notify AFTER INSERT OR DELETE OR UPDATE ON public.api_key_projects FOR EACH ROW EXECUTE FUNCTION public.notify_changelog_change();

--
-- Name: api_keys api_keys_notify; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER api_keys_notify AFTER INSERT OR DELETE OR UPDATE OF context_type, user_id, org_id, scope, key_hash, previous_key_hash, previous_expires_at, expires_at, revoked_at ON public.api_keys FOR EACH ROW EXECUTE FUNCTION public.notify_changelog_change();

--
-- Name: changelog_entries changelog_entries_after_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_after_delete AFTER DELETE ON public.changelog_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.changelog_entries_after_statement();

--
-- Name: changelog_entries changelog_entries_after_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_after_insert AFTER INSERT ON public.changelog_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.changelog_entries_after_statement();

--
-- Name: changelog_entries changelog_entries_after_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_after_update AFTER UPDATE ON public.changelog_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.changelog_entries_after_statement();

--
-- Name: changelog_entries changelog_entries_new_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_new_version BEFORE UPDATE ON public.changelog_entries FOR EACH ROW EXECUTE FUNCTION public.changelog_entries_new_version();

--
-- Name: changelog_entries changelog_entries_occurred_at_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_occurred_at_insert BEFORE INSERT ON public.changelog_entries FOR EACH ROW WHEN ((new.occurred_at IS NULL)) EXECUTE FUNCTION public.changelog_entries_occurred_at();

--
-- Name: changelog_entries changelog_entries_occurred_at_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_occurred_at_update BEFORE UPDATE OF period_start, commit_id ON public.changelog_entries FOR EACH ROW EXECUTE FUNCTION public.changelog_entries_occurred_at();

--
-- Name: changelog_entries changelog_entries_webhooks_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_webhooks_delete AFTER DELETE ON public.changelog_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.changelog_entries_webhook_events();

--
-- Name: changelog_entries changelog_entries_webhooks_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_webhooks_insert AFTER INSERT ON public.changelog_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.changelog_entries_webhook_events();

--
-- Name: changelog_entries changelog_entries_webhooks_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER changelog_entries_webhooks_update AFTER UPDATE ON public.changelog_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.changelog_entries_webhook_events();

--
-- Name: projects projects_notify; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER projects_notify AFTER INSERT OR DELETE OR UPDATE OF name, slug, owner_type, owner_user_id, owner_org_id, theme_color, logo_url, public_view ON public.projects FOR EACH ROW EXECUTE FUNCTION public.notify_changelog_change();

--
-- Name: projects projects_published_changed; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER projects_published_changed BEFORE UPDATE OF published_changed_at, name, slug, theme_color, logo_url, public_view ON public.projects FOR EACH ROW EXECUTE FUNCTION public.projects_published_changed();

--
-- Name: changelog_entries published_entry_components_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_components_delete AFTER DELETE ON public.changelog_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_components_sync();

--
-- Name: changelog_entries published_entry_components_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_components_insert AFTER INSERT ON public.changelog_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_components_sync();

--
-- Name: changelog_entries published_entry_components_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_components_truncate AFTER TRUNCATE ON public.changelog_entries FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_components_truncate();

--
-- Name: changelog_entries published_entry_components_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_components_update AFTER UPDATE ON public.changelog_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_components_sync();

--
-- Name: published_entry_components published_entry_marks_components_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_marks_components_delete AFTER DELETE ON public.published_entry_components REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_marks_follow_components();

--
-- Name: published_entry_components published_entry_marks_components_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_marks_components_insert AFTER INSERT ON public.published_entry_components REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_marks_follow_components();

--
-- Name: changelog_entries published_entry_marks_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_marks_delete AFTER DELETE ON public.changelog_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_marks_follow_entries();

--
-- Name: changelog_entries published_entry_marks_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_marks_insert AFTER INSERT ON public.changelog_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_marks_follow_entries();

--
-- Name: changelog_entries published_entry_marks_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_marks_truncate AFTER TRUNCATE ON public.changelog_entries FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_marks_truncate();

--
-- Name: changelog_entries published_entry_marks_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_entry_marks_update AFTER UPDATE ON public.changelog_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_entry_marks_follow_entries();

--
-- Name: release_notes published_release_marks_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_release_marks_delete AFTER DELETE ON public.release_notes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_release_marks_follow();

--
-- Name: release_notes published_release_marks_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_release_marks_insert AFTER INSERT ON public.release_notes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_release_marks_follow();

--
-- Name: release_notes published_release_marks_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_release_marks_truncate AFTER TRUNCATE ON public.release_notes FOR EACH STATEMENT EXECUTE FUNCTION public.published_release_marks_truncate();

--
-- Name: release_notes published_release_marks_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER published_release_marks_update AFTER UPDATE ON public.release_notes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.published_release_marks_follow();

--
-- Name: release_notes release_notes_after_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER release_notes_after_delete AFTER DELETE ON public.release_notes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.release_notes_after_statement();

--
-- Name: release_notes release_notes_after_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER release_notes_after_insert AFTER INSERT ON public.release_notes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.release_notes_after_statement();

--
-- Name: release_notes release_notes_after_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER release_notes_after_update AFTER UPDATE ON public.release_notes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.release_notes_after_statement();

--
-- Name: release_notes release_notes_github_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER release_notes_github_delete AFTER DELETE ON public.release_notes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.release_notes_github_syncs();

--
-- Name: release_notes release_notes_github_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER release_notes_github_insert AFTER INSERT ON public.release_notes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.release_notes_github_syncs();

--
-- Name: release_notes release_notes_github_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER release_notes_github_update AFTER UPDATE ON public.release_notes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.release_notes_github_syncs();

--
-- Name: account_setup_tokens account_setup_tokens_used_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_setup_tokens
    ADD CONSTRAINT account_setup_tokens_used_by_fkey FOREIGN KEY (used_by) REFERENCES public.users(id) ON DELETE SET NULL;

--
-- Name: account_setup_tokens account_setup_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_setup_tokens
    ADD CONSTRAINT account_setup_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: api_key_projects api_key_projects_api_key_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key_projects
    ADD CONSTRAINT api_key_projects_api_key_id_fkey FOREIGN KEY (api_key_id) REFERENCES public.api_keys(id) ON DELETE CASCADE;

--
-- Name: api_key_projects api_key_projects_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key_projects
    ADD CONSTRAINT api_key_projects_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: api_keys api_keys_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE SET NULL;

--
-- Name: api_keys api_keys_org_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_org_id_fkey FOREIGN KEY (org_id) REFERENCES public.organizations(id) ON DELETE CASCADE;

--
-- Name: api_keys api_keys_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: changelog_entries changelog_entries_commit_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.changelog_entries
    ADD CONSTRAINT changelog_entries_commit_id_fkey FOREIGN KEY (commit_id) REFERENCES public.commits(id) ON DELETE SET NULL;

--
-- Name: changelog_entries changelog_entries_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.changelog_entries
    ADD CONSTRAINT changelog_entries_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: changelog_entry_revisions changelog_entry_revisions_entry_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.changelog_entry_revisions
    ADD CONSTRAINT changelog_entry_revisions_entry_id_fkey FOREIGN KEY (entry_id) REFERENCES public.changelog_entries(id) ON DELETE CASCADE;

--
-- Name: changelog_entry_revisions changelog_entry_revisions_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.changelog_entry_revisions
    ADD CONSTRAINT changelog_entry_revisions_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: commits commits_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commits
    ADD CONSTRAINT commits_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: commits commits_repo_link_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commits
    ADD CONSTRAINT commits_repo_link_id_fkey FOREIGN KEY (repo_link_id) REFERENCES public.repo_links(id) ON DELETE SET NULL;

--
-- Name: github_link_publishing github_link_publishing_link_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_link_publishing
    ADD CONSTRAINT github_link_publishing_link_id_fkey FOREIGN KEY (link_id) REFERENCES public.repo_links(id) ON DELETE CASCADE;

--
-- Name: github_link_publishing github_link_publishing_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_link_publishing
    ADD CONSTRAINT github_link_publishing_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: github_pr_syncs github_pr_syncs_link_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_pr_syncs
    ADD CONSTRAINT github_pr_syncs_link_id_fkey FOREIGN KEY (link_id) REFERENCES public.repo_links(id) ON DELETE CASCADE;

--
-- Name: github_pull_requests github_pull_requests_link_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_pull_requests
    ADD CONSTRAINT github_pull_requests_link_id_fkey FOREIGN KEY (link_id) REFERENCES public.repo_links(id) ON DELETE CASCADE;

--
-- Name: github_release_syncs github_release_syncs_link_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.github_release_syncs
    ADD CONSTRAINT github_release_syncs_link_id_fkey FOREIGN KEY (link_id) REFERENCES public.repo_links(id) ON DELETE CASCADE;

--
-- Name: organization_invites organization_invites_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organization_invites
    ADD CONSTRAINT organization_invites_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE SET NULL;

--
-- Name: organization_invites organization_invites_organization_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organization_invites
    ADD CONSTRAINT organization_invites_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES public.organizations(id) ON DELETE CASCADE;

--
-- Name: organization_invites organization_invites_used_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organization_invites
    ADD CONSTRAINT organization_invites_used_by_fkey FOREIGN KEY (used_by) REFERENCES public.users(id) ON DELETE SET NULL;

--
-- Name: organization_members organization_members_organization_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organization_members
    ADD CONSTRAINT organization_members_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES public.organizations(id) ON DELETE CASCADE;

--
-- Name: organization_members organization_members_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.organization_members
    ADD CONSTRAINT organization_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: projects projects_owner_org_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projects
    ADD CONSTRAINT projects_owner_org_id_fkey FOREIGN KEY (owner_org_id) REFERENCES public.organizations(id) ON DELETE CASCADE;

--
-- Name: projects projects_owner_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.projects
    ADD CONSTRAINT projects_owner_user_id_fkey FOREIGN KEY (owner_user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: release_note_edits release_note_edits_edited_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_edits
    ADD CONSTRAINT release_note_edits_edited_by_fkey FOREIGN KEY (edited_by) REFERENCES public.users(id) ON DELETE SET NULL;

--
-- Name: release_note_edits release_note_edits_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_edits
    ADD CONSTRAINT release_note_edits_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: release_note_edits release_note_edits_release_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_edits
    ADD CONSTRAINT release_note_edits_release_id_fkey FOREIGN KEY (release_id) REFERENCES public.release_notes(id) ON DELETE CASCADE;

--
-- Name: release_note_revisions release_note_revisions_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_revisions
    ADD CONSTRAINT release_note_revisions_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: release_note_revisions release_note_revisions_release_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_revisions
    ADD CONSTRAINT release_note_revisions_release_id_fkey FOREIGN KEY (release_id) REFERENCES public.release_notes(id) ON DELETE CASCADE;

--
-- Name: release_note_summaries release_note_summaries_decided_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_summaries
    ADD CONSTRAINT release_note_summaries_decided_by_fkey FOREIGN KEY (decided_by) REFERENCES public.users(id) ON DELETE SET NULL;

--
-- Name: release_note_summaries release_note_summaries_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_summaries
    ADD CONSTRAINT release_note_summaries_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: release_note_summaries release_note_summaries_release_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_note_summaries
    ADD CONSTRAINT release_note_summaries_release_id_fkey FOREIGN KEY (release_id) REFERENCES public.release_notes(id) ON DELETE CASCADE;

--
-- Name: release_notes release_notes_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.release_notes
    ADD CONSTRAINT release_notes_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: repo_links repo_links_installation_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.repo_links
    ADD CONSTRAINT repo_links_installation_id_fkey FOREIGN KEY (installation_id) REFERENCES public.scm_installations(id) ON DELETE CASCADE;

--
-- Name: repo_links repo_links_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.repo_links
    ADD CONSTRAINT repo_links_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: scm_identities scm_identities_org_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_identities
    ADD CONSTRAINT scm_identities_org_id_fkey FOREIGN KEY (org_id) REFERENCES public.organizations(id) ON DELETE CASCADE;

--
-- Name: scm_identities scm_identities_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_identities
    ADD CONSTRAINT scm_identities_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: scm_install_states scm_install_states_org_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_install_states
    ADD CONSTRAINT scm_install_states_org_id_fkey FOREIGN KEY (org_id) REFERENCES public.organizations(id) ON DELETE CASCADE;

--
-- Name: scm_install_states scm_install_states_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_install_states
    ADD CONSTRAINT scm_install_states_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: scm_installations scm_installations_org_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_installations
    ADD CONSTRAINT scm_installations_org_id_fkey FOREIGN KEY (org_id) REFERENCES public.organizations(id) ON DELETE CASCADE;

--
-- Name: scm_installations scm_installations_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scm_installations
    ADD CONSTRAINT scm_installations_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: sessions sessions_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;

--
-- Name: webhook_delivery_attempts webhook_delivery_attempts_delivery_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_delivery_attempts
    ADD CONSTRAINT webhook_delivery_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES public.webhook_event_deliveries(id) ON DELETE CASCADE;

--
-- Name: webhook_endpoints webhook_endpoints_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- Name: webhook_event_deliveries webhook_event_deliveries_endpoint_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_event_deliveries
    ADD CONSTRAINT webhook_event_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES public.webhook_endpoints(id) ON DELETE CASCADE;

--
-- Name: webhook_event_deliveries webhook_event_deliveries_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_event_deliveries
    ADD CONSTRAINT webhook_event_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.webhook_events(id) ON DELETE CASCADE;

--
-- Name: webhook_events webhook_events_project_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_events
    ADD CONSTRAINT webhook_events_project_id_fkey FOREIGN KEY (project_id) REFERENCES public.projects(id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
