-- The public page (/c/{slug}) shows one view by default instead of interleaving commit, weekly and
-- monthly entries that repeat the same changes: chosen per project by its managers. NULL: the
-- page picks the first of weekly, monthly, daily, every change that has published entries.
-- 'releases' is allowed here so that release views need no migration once releases are stored.
ALTER TABLE projects
  ADD COLUMN public_view text CHECK (public_view IN ('releases', 'weekly', 'monthly', 'daily', 'commit', 'all'));

-- The default view changes what /c/{slug} shows: like the theme, it drops the cached page
-- (projects_notify) and moves the listing's Last-Modified forward (published_changed_at, 0017).
DROP TRIGGER projects_notify ON projects;
CREATE TRIGGER projects_notify
  AFTER INSERT OR DELETE OR UPDATE OF name, slug, owner_type, owner_user_id, owner_org_id, theme_color, logo_url, public_view ON projects
  FOR EACH ROW EXECUTE FUNCTION notify_changelog_change();

CREATE OR REPLACE FUNCTION projects_published_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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

DROP TRIGGER projects_published_changed ON projects;
CREATE TRIGGER projects_published_changed
  BEFORE UPDATE OF published_changed_at, name, slug, theme_color, logo_url, public_view ON projects
  FOR EACH ROW EXECUTE FUNCTION projects_published_changed();
