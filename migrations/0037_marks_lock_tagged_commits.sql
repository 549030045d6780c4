-- Three things of issue #27 (cost that grows with the change, not with the history).
--
-- 1. Listing marks stay exact when two transactions publish into one project at once.
--
-- A rebuild of 0030 numbers a listing from what its statement sees. In READ COMMITTED a second
-- transaction's statement does not see the first one's uncommitted rows, so two publishes at once
-- numbered the listing each without the other's entry: a mark went missing (two new rows completing
-- a mark only together), or the second failed on the marks' primary key (each adding the same one).
-- The marks of entries were spared by an accident of naming: their trigger fires after
-- changelog_entries_after_statement, whose UPDATE of the project's counts takes the project's row
-- lock first, and once a statement has waited for that lock, the next ones read what the other
-- transaction committed. The marks of release notes fire before release_notes_after_statement, and
-- a test with two concurrent publishes on PostgreSQL lost a release mark (listing-marks.int.test.ts).
--
-- Each rebuild now takes the project's row lock itself, the lock the count triggers take anyway
-- (FOR NO KEY UPDATE, as their UPDATE does; inserts of drafts, which take KEY SHARE through their
-- foreign key, do not wait for it). It is held to the end of the transaction, so rebuilds of one
-- project run one transaction after another, each reading the marks and rows the other committed,
-- whatever order the triggers fire in. A deleted project (a cascade) has no row to lock: nothing
-- waits, nothing is left to number.

CREATE OR REPLACE FUNCTION published_entry_marks_rebuild(of_project uuid, of_component text, of_listing text, from_at timestamptz, from_id uuid)
RETURNS void LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE FUNCTION published_release_marks_rebuild(of_project uuid, from_at timestamptz, from_id uuid)
RETURNS void LANGUAGE plpgsql AS $$
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

-- 2. The tagged commits of a link, by index. Every ingest, also one that finds nothing new, makes the
-- stored tags match the mirror's (commitsRepository.syncTags): commits tagged no more lose their tags.
-- Found through the link's (repo_link_id, sha) key, that read every commit of the link, its whole
-- history, to keep the few with tags (about one in a hundred in a real history). Here just those.
CREATE INDEX commits_tagged_idx ON commits (repo_link_id) WHERE cardinality(tags) > 0;

-- 3. And an ingest that finds the same tags as the last one does not compare them at all: the last
-- complete ingest's tags, as a digest (ingest.service.ts). Cleared when an ingest starts, so that one
-- that stops half-way (having stored commits with the tags it saw) leaves the next one to compare.
ALTER TABLE repo_links ADD COLUMN tags_digest text;
