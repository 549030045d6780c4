-- The public changelog page (/c/{slug}) and feeds: per-project theme, set by the project's managers.
-- Both are optional; the CHECKs repeat the service's rules so no other path can store a colour that
-- breaks the page's CSS or a logo URL that is not https.
ALTER TABLE projects
  ADD COLUMN theme_color text CHECK (theme_color ~ '^#[0-9a-f]{6}$'),
  ADD COLUMN logo_url    text CHECK (logo_url ~ '^https://' AND length(logo_url) <= 2000);

-- The public page shows the theme, so changing it must drop the cached page like a rename does.
DROP TRIGGER projects_notify ON projects;
CREATE TRIGGER projects_notify
  AFTER INSERT OR DELETE OR UPDATE OF name, slug, owner_type, owner_user_id, owner_org_id, theme_color, logo_url ON projects
  FOR EACH ROW EXECUTE FUNCTION notify_changelog_change();
