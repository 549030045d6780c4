-- When what a project's public listing shows last changed, of any kind: an entry published,
-- unpublished, archived, deleted or edited while published, or the project's name, slug, colour or
-- logo. The feeds and public pages send it as Last-Modified. It was the newest published entry's
-- date, which moves backwards when that entry is retracted, so If-Modified-Since revalidation got
-- 304 and kept showing the retracted entry.
--
-- HTTP dates have whole seconds, so every change moves the value to a later second than the one
-- before it (not merely a later instant): a client that saw the listing in second S sends
-- If-Modified-Since: S, and a change within that same second must still compare as newer. The
-- bump is relative to the last committed value, which is all a reader can have seen, so it also
-- holds when a transaction commits long after its statements ran. Within one transaction the value
-- is moved once (nobody outside sees the intermediate values), so a transaction of many statements
-- does not push it many seconds ahead. Many separate changes within one second do run it ahead of
-- the clock by a second each; the server never sends a Last-Modified later than its own clock.
ALTER TABLE projects
  ADD COLUMN published_changed_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN published_changed_xact xid8;

-- Any write that names the column or a displayed project field goes through this rule, plain SQL
-- included, so the value never decreases and never stays in the same second on a change.
CREATE FUNCTION projects_published_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.published_changed_at IS NOT DISTINCT FROM OLD.published_changed_at
     AND (NEW.name, NEW.slug, NEW.theme_color, NEW.logo_url) IS NOT DISTINCT FROM (OLD.name, OLD.slug, OLD.theme_color, OLD.logo_url) THEN
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

CREATE TRIGGER projects_published_changed
  BEFORE UPDATE OF published_changed_at, name, slug, theme_color, logo_url ON projects
  FOR EACH ROW EXECUTE FUNCTION projects_published_changed();

-- 0007's statement-level trigger, now also marking the change for every project with a published
-- row among the old or new rows (an edit of a published entry counts, not only a count change).
-- Drafts changing alone change nothing public.
CREATE OR REPLACE FUNCTION changelog_entries_after_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE projects p SET published_entry_count = p.published_entry_count + d.n, published_changed_at = clock_timestamp()
    FROM (SELECT project_id, count(*) AS n FROM new_rows WHERE status = 'published' GROUP BY project_id) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT DISTINCT project_id FROM new_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE projects p SET published_entry_count = p.published_entry_count - d.n, published_changed_at = clock_timestamp()
    FROM (SELECT project_id, count(*) AS n FROM old_rows WHERE status = 'published' GROUP BY project_id) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT DISTINCT project_id FROM old_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  ELSE
    UPDATE projects p SET published_entry_count = p.published_entry_count + d.n, published_changed_at = clock_timestamp()
    FROM (
      SELECT project_id, sum(delta) AS n FROM (
        SELECT project_id, 1 AS delta FROM new_rows WHERE status = 'published'
        UNION ALL
        SELECT project_id, -1 AS delta FROM old_rows WHERE status = 'published'
      ) deltas GROUP BY project_id
    ) d
    WHERE p.id = d.project_id;
    FOR changed IN SELECT project_id FROM new_rows UNION SELECT project_id FROM old_rows LOOP
      PERFORM pg_notify('changelog_changes', 'project:' || changed.project_id);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
