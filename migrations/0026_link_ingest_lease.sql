-- Who ingests a link right now, across processes: a lease on the link's row (a random token and
-- when it lapses), taken with one UPDATE, renewed while the ingest runs and cleared at its end. It
-- replaces a session advisory lock, which excluded nothing between processes that reach the
-- embedded database through the server's socket (they all share its one session). A process that
-- dies holding a lease holds it until it lapses.
ALTER TABLE repo_links
  ADD COLUMN ingest_lease       uuid,
  ADD COLUMN ingest_lease_until timestamptz;
