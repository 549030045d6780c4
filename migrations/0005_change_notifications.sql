-- Every change that can alter a public or authenticated read is announced on the channel
-- `changelog_changes` when its transaction commits, whichever code path made it. Server processes
-- LISTEN and drop the cached responses it affects. Payloads: `project:<uuid>` (entries or the
-- project itself changed), `projects` (a project was created, renamed, moved or deleted), `keys`
-- (a key or its project selection changed). PostgreSQL folds identical payloads of one transaction
-- into one notification, so a bulk import announces each project once.

CREATE FUNCTION notify_changelog_change() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER changelog_entries_notify
  AFTER INSERT OR UPDATE OR DELETE ON changelog_entries
  FOR EACH ROW EXECUTE FUNCTION notify_changelog_change();

-- Not on published_entry_count: the entries trigger already announces those changes.
CREATE TRIGGER projects_notify
  AFTER INSERT OR DELETE OR UPDATE OF name, slug, owner_type, owner_user_id, owner_org_id ON projects
  FOR EACH ROW EXECUTE FUNCTION notify_changelog_change();

-- Not on last_used_at: recording use changes nothing a response shows.
CREATE TRIGGER api_keys_notify
  AFTER INSERT OR DELETE OR UPDATE OF context_type, user_id, org_id, scope, key_hash, previous_key_hash,
    previous_expires_at, expires_at, revoked_at ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_changelog_change();

CREATE TRIGGER api_key_projects_notify
  AFTER INSERT OR UPDATE OR DELETE ON api_key_projects
  FOR EACH ROW EXECUTE FUNCTION notify_changelog_change();
