-- Outbound webhooks: endpoints a project's owners register, the events entry changes produce, one
-- delivery per event and endpoint, and the log of every attempt.
--
-- Events are written by statement-level triggers on changelog_entries (like 0007's), so every
-- writer counts (dashboard, generation with auto publish, import, CLI, plain SQL), in the same
-- transaction as the change: a rolled-back change produces no event, a committed one cannot be lost.
-- The worker queues each new delivery as a job (pg-boss), which retries with exponential backoff.

CREATE TABLE webhook_endpoints (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id  uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  url         text NOT NULL CHECK (length(url) <= 2048),
  -- Event types the endpoint receives: entry.published, entry.unpublished, entry.updated.
  event_types text[] NOT NULL CHECK (cardinality(event_types) > 0),
  -- The signing secret, needed in clear to sign: AES-256-GCM under WEBHOOK_ENCRYPTION_KEY
  -- ("enc:v1:…"), or as is ("plain:…") when no key is configured.
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_project_idx ON webhook_endpoints (project_id);

CREATE TABLE webhook_events (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  type       text NOT NULL,
  -- The entry as it was right after the change (null for a test event).
  entry_id   uuid,
  entry      jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_event_deliveries (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id        uuid NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  -- Null until the worker has queued the delivery job.
  queued_at       timestamptz,
  last_attempt_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_event_deliveries_unqueued_idx ON webhook_event_deliveries (created_at) WHERE queued_at IS NULL;
CREATE INDEX webhook_event_deliveries_endpoint_idx ON webhook_event_deliveries (endpoint_id, created_at DESC);

CREATE TABLE webhook_delivery_attempts (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id      uuid NOT NULL REFERENCES webhook_event_deliveries(id) ON DELETE CASCADE,
  attempt          integer NOT NULL,
  status_code      integer,
  duration_ms      integer NOT NULL,
  error            text,
  -- The first bytes of the response body (capped), for the delivery log.
  response_excerpt text,
  attempted_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, attempt);

-- Events of one statement's changes, fanned out to the project's subscribed endpoints. A project
-- without endpoints costs one index probe per statement; a project being deleted (its entries go
-- by cascade) produces nothing.
CREATE FUNCTION changelog_entries_webhook_events() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER changelog_entries_webhooks_insert
  AFTER INSERT ON changelog_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION changelog_entries_webhook_events();
CREATE TRIGGER changelog_entries_webhooks_delete
  AFTER DELETE ON changelog_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION changelog_entries_webhook_events();
CREATE TRIGGER changelog_entries_webhooks_update
  AFTER UPDATE ON changelog_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION changelog_entries_webhook_events();
