-- The GitHub trigger (0040) guarded itself with a look at the whole github_link_publishing table, and
-- its CHANGELOG.md update had no index on `changelog_pr`: once any tenant turned publishing on, every
-- release-note write of every tenant scanned the table of all GitHub links. The guard now asks only
-- about the statement's projects, and one partial index serves the guard and both fan-outs (an index
-- on `releases OR changelog_pr` answers `releases` and `changelog_pr` lookups alike, then filters).

CREATE INDEX github_link_publishing_active_idx ON github_link_publishing (project_id) WHERE releases OR changelog_pr;
DROP INDEX github_link_publishing_project_idx;

CREATE OR REPLACE FUNCTION release_notes_github_syncs() RETURNS trigger LANGUAGE plpgsql AS $$
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
