-- No query reads deliveries by endpoint and time any more (the log and stats read attempts; the
-- cascade from a webhook uses the unique (webhook_id, event_id) index). The index cost a btree
-- insert on every delivery written and on every update that is not HOT.
DROP INDEX IF EXISTS "webhook_deliveries_webhook_created_idx";
