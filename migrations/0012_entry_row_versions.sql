-- Every stored version of an entry gets a number no other version of any entry has had, so a
-- serialized entry can be reused for exactly as long as the row is unchanged, whoever changes it
-- (the application, an import, plain SQL). A sequence rather than xmin: xmin can repeat once
-- transaction ids wrap around or tuples are frozen.
CREATE SEQUENCE changelog_entry_versions;

-- Existing rows each get their own number (the volatile default fills them in as the table is rewritten).
ALTER TABLE changelog_entries ADD COLUMN row_version bigint NOT NULL DEFAULT nextval('changelog_entry_versions');

-- Inserts take the default; an update always takes a new number, even one that sets row_version itself.
CREATE FUNCTION changelog_entries_new_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.row_version := nextval('changelog_entry_versions');
  RETURN NEW;
END $$;

CREATE TRIGGER changelog_entries_new_version
  BEFORE UPDATE ON changelog_entries
  FOR EACH ROW EXECUTE FUNCTION changelog_entries_new_version();
