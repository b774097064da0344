CREATE TABLE "reporting_events" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"name" text NOT NULL,
	"user_id" text,
	"actor_id" text,
	"value_s" double precision NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reporting_events" ADD CONSTRAINT "reporting_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "reporting_events_account_name_created_idx" ON "reporting_events" USING btree ("account_id","name","created_at");
--> statement-breakpoint
CREATE INDEX "reporting_events_conversation_idx" ON "reporting_events" USING btree ("conversation_id","created_at");
--> statement-breakpoint
-- Every close already recorded as a `conversation.closed` event becomes a resolution: the
-- assignee and the close time as the event carried them, the start being the reopening that
-- followed the previous close (the first `conversation.reopened` after it: a snoozed
-- conversation waking up is reopened too, but is no new start), else the conversation's creation.
INSERT INTO "reporting_events" ("id", "account_id", "conversation_id", "name", "user_id", "actor_id", "value_s", "started_at", "created_at")
SELECT
	'rpe_' || substr(e.id, 5),
	e.account_id,
	e.data->'conversation'->>'id',
	'conversation_resolved',
	e.data->'conversation'->>'assigned_to',
	e.data->'user'->>'id',
	greatest(0, extract(epoch from ((e.data->'conversation'->>'closed_at')::timestamptz - s.started_at)))::float8,
	s.started_at,
	(e.data->'conversation'->>'closed_at')::timestamptz
FROM "events" e
CROSS JOIN LATERAL (
	SELECT max(p.created_at) AS previous_close FROM "events" p
	WHERE p.account_id = e.account_id AND p.type = 'conversation.closed'
		AND p.data->'conversation'->>'id' = e.data->'conversation'->>'id' AND p.id < e.id
) before
CROSS JOIN LATERAL (
	SELECT coalesce(
		(SELECT (r.data->'conversation'->>'updated_at')::timestamptz FROM "events" r
			WHERE r.account_id = e.account_id AND r.type = 'conversation.reopened'
				AND r.data->'conversation'->>'id' = e.data->'conversation'->>'id'
				AND r.created_at >= before.previous_close AND r.id < e.id
			ORDER BY r.id LIMIT 1),
		(e.data->'conversation'->>'created_at')::timestamptz
	) AS started_at
) s
WHERE e.type = 'conversation.closed'
	AND e.data->'conversation'->>'id' IS NOT NULL
	AND e.data->'conversation'->>'closed_at' IS NOT NULL;
