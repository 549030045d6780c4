-- Outbound deliveries are admitted to the job queue a few at a time per endpoint and per tenant
-- (security issue #21, same class as finding 4): the rest wait here, in order, so one tenant's
-- endpoints that never answer cannot fill the queue ahead of every other tenant's deliveries. The
-- dispatcher finds the endpoints with deliveries waiting by skipping through the first index (one probe
-- each), takes each one's oldest, and counts what is queued and unfinished from the second (a few rows
-- per tenant), whatever the backlog or the history. 0009's index of waiting deliveries by date alone
-- would walk one tenant's whole backlog to find another's next delivery.
DROP INDEX webhook_event_deliveries_unqueued_idx;
CREATE INDEX webhook_event_deliveries_waiting_idx ON webhook_event_deliveries (endpoint_id, created_at, id) WHERE queued_at IS NULL;
CREATE INDEX webhook_event_deliveries_in_flight_idx ON webhook_event_deliveries (endpoint_id, queued_at) WHERE queued_at IS NOT NULL AND status = 'pending';
