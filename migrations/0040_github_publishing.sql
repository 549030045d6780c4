-- Publishing to GitHub (issue 25): per GitHub link, whether published release notes are written to
-- the repository's GitHub Releases and whether pull requests get a check run; and, per link and tag,
-- what the GitHub Release of that tag last received from the service.
--
-- Like outbound webhooks (0009), the work comes from a statement-level trigger on the table every
-- writer of publication goes through (release_notes), in the transaction of the change: a rolled-back
-- publish asks for nothing, a committed one cannot be lost. The trigger only bumps `wanted`; the
-- worker's dispatcher queues a job per link, which syncs every tag whose `synced` is behind.

CREATE TABLE github_link_publishing (
  link_id        uuid PRIMARY KEY REFERENCES repo_links(id) ON DELETE CASCADE,
  project_id     uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  -- Published release notes create or update the GitHub Release of their tag (needs Contents: write).
  releases       boolean NOT NULL DEFAULT false,
  -- Check runs on pull requests: off, report (neutral/success), or blocking (failure on warnings).
  pr_checks      text NOT NULL DEFAULT 'off' CHECK (pr_checks IN ('off', 'report', 'blocking')),
  -- The last problem that stopped a check run (permissions), for the dashboard.
  pr_checks_error text,
  pr_checks_at   timestamptz,
  -- CHANGELOG.md kept current through one pull request (never a push to the tracked branch): wanted is
  -- bumped by the trigger below whenever a published note changes; queued and synced follow it.
  changelog_pr   boolean NOT NULL DEFAULT false,
  changelog_wanted integer NOT NULL DEFAULT 0,
  changelog_queued integer NOT NULL DEFAULT 0,
  changelog_synced integer NOT NULL DEFAULT 0,
  changelog_pr_number integer,
  changelog_synced_at timestamptz,
  changelog_error text,
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX github_link_publishing_project_idx ON github_link_publishing (project_id) WHERE releases;

CREATE TABLE github_release_syncs (
  link_id            uuid NOT NULL REFERENCES repo_links(id) ON DELETE CASCADE,
  tag                text NOT NULL,
  -- Bumped by the trigger on every change readers can see; `queued` and `synced` follow it.
  wanted             integer NOT NULL DEFAULT 1,
  queued             integer NOT NULL DEFAULT 0,
  synced             integer NOT NULL DEFAULT 0,
  -- GitHub's id of the tag's release, once the service created or found it.
  release_id         bigint,
  -- Whether the service created that release (then it may withdraw it: marked draft on unpublish).
  created_by_service boolean NOT NULL DEFAULT false,
  -- Set before a create is sent: after a crash, the release found by tag is the service's own if it
  -- holds nothing but the service's text.
  create_sent_at     timestamptz,
  last_synced_at     timestamptz,
  last_attempt_at    timestamptz,
  last_error         text,
  PRIMARY KEY (link_id, tag)
);
CREATE INDEX github_release_syncs_behind_idx ON github_release_syncs (link_id) WHERE synced < wanted;

-- The published notes a statement changed as readers see them (tagged only: the Unreleased note has
-- no GitHub Release), fanned out to the project's links that publish releases. A project without
-- such a link costs one probe of a partial index per statement. Links (and projects) being deleted in
-- the same statement are joined away: their rows would go by cascade anyway.
CREATE FUNCTION release_notes_github_syncs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM github_link_publishing WHERE releases OR changelog_pr) THEN
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

CREATE TRIGGER release_notes_github_insert
  AFTER INSERT ON release_notes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION release_notes_github_syncs();
CREATE TRIGGER release_notes_github_delete
  AFTER DELETE ON release_notes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION release_notes_github_syncs();
CREATE TRIGGER release_notes_github_update
  AFTER UPDATE ON release_notes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION release_notes_github_syncs();
