-- Reports read what was counted as messages were written, not the messages themselves: an
-- account's messages per 15-minute slot (every real time zone's hours start on one), each
-- agent's messages per UTC day, and each conversation's first response. Statement triggers on
-- messages keep the three in the transaction of the change (a bulk insert is one grouped
-- upsert, a status change that makes a reply count or stop counting is one refresh).
CREATE TABLE "report_message_slots" (
	"account_id" text NOT NULL,
	"slot" timestamp (3) with time zone NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"sent_by_agents" integer DEFAULT 0 NOT NULL,
	"automated" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_message_slots_pk" PRIMARY KEY ("account_id", "slot")
);
--> statement-breakpoint
ALTER TABLE "report_message_slots" ADD CONSTRAINT "report_message_slots_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "report_agent_days" (
	"account_id" text NOT NULL,
	"day" timestamp (3) with time zone NOT NULL,
	"user_id" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"sent_ok" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_agent_days_pk" PRIMARY KEY ("account_id", "day", "user_id")
);
--> statement-breakpoint
ALTER TABLE "report_agent_days" ADD CONSTRAINT "report_agent_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "report_first_responses" (
	"conversation_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"inbound_at" timestamp (3) with time zone NOT NULL,
	"inbound_id" text NOT NULL,
	"reply_at" timestamp (3) with time zone,
	"reply_id" text,
	"reply_user_id" text
);
--> statement-breakpoint
ALTER TABLE "report_first_responses" ADD CONSTRAINT "report_first_responses_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "report_first_responses_account_inbound_idx" ON "report_first_responses" USING btree ("account_id","inbound_at");
--> statement-breakpoint
-- The conversations' first inbound message and the first reply after it by a person that reached
-- the network (sent, delivered or read; a failed send is no response), computed afresh. One pass
-- over their messages (no join back to them), so a bulk load of thousands of conversations costs
-- one scan whichever indexes exist.
CREATE OR REPLACE FUNCTION chorus_report_first_responses_refresh(ids text[]) RETURNS void
LANGUAGE sql AS $$
	DELETE FROM "report_first_responses" f
	WHERE f."conversation_id" IN (SELECT unnest(ids))
		AND NOT EXISTS (SELECT 1 FROM "messages" m WHERE m."conversation_id" = f."conversation_id" AND m."direction" = 'inbound');
	WITH m AS (
		SELECT m."conversation_id", m."account_id", m."created_at", m."id", m."sender_user_id",
			CASE
				WHEN m."direction" = 'inbound' THEN 'q'
				WHEN m."direction" = 'outbound' AND m."sender_type" = 'user' AND m."status" IN ('sent', 'delivered', 'read')
					-- A reply counts from the moment of the first question on (the same instant included).
					AND bool_or(m."direction" = 'inbound') OVER (PARTITION BY m."conversation_id" ORDER BY m."created_at" RANGE UNBOUNDED PRECEDING)
				THEN 'r'
			END AS kind
		FROM "messages" m JOIN unnest(ids) AS c(id) ON m."conversation_id" = c.id
	),
	firsts AS (
		SELECT DISTINCT ON ("conversation_id", kind) * FROM m WHERE kind IS NOT NULL
		ORDER BY "conversation_id", kind, "created_at", "id"
	)
	INSERT INTO "report_first_responses" AS f ("conversation_id", "account_id", "inbound_at", "inbound_id", "reply_at", "reply_id", "reply_user_id")
	SELECT "conversation_id", max("account_id"),
		max("created_at") FILTER (WHERE kind = 'q'), max("id") FILTER (WHERE kind = 'q'),
		max("created_at") FILTER (WHERE kind = 'r'), max("id") FILTER (WHERE kind = 'r'), max("sender_user_id") FILTER (WHERE kind = 'r')
	FROM firsts
	GROUP BY "conversation_id"
	HAVING count(*) FILTER (WHERE kind = 'q') > 0
	ORDER BY "conversation_id"
	ON CONFLICT ("conversation_id") DO UPDATE SET
		"inbound_at" = excluded."inbound_at", "inbound_id" = excluded."inbound_id",
		"reply_at" = excluded."reply_at", "reply_id" = excluded."reply_id", "reply_user_id" = excluded."reply_user_id";
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_messages() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	delta text;
	ids text[];
BEGIN
	-- The change as signed rows: +1 for each row as it is now, -1 for each row as it was (an
	-- update that changes nothing counted is left out); a deletion only subtracts, below.
	IF TG_OP = 'INSERT' THEN
		delta := 'SELECT n.account_id, n.created_at, n.direction, n.sender_type, n.sender_user_id, n.status, 1 AS sign FROM new_rows n';
		SELECT array_agg(DISTINCT n."conversation_id") INTO ids FROM new_rows n
		LEFT JOIN "report_first_responses" f ON f."conversation_id" = n."conversation_id"
		WHERE (n."direction" = 'inbound' AND (f."conversation_id" IS NULL OR (n."created_at", n."id") < (f."inbound_at", f."inbound_id")))
			OR (n."direction" = 'outbound' AND n."sender_type" = 'user' AND n."status" IN ('sent', 'delivered', 'read')
				AND f."conversation_id" IS NOT NULL AND n."created_at" >= f."inbound_at"
				AND (f."reply_at" IS NULL OR (n."created_at", n."id") < (f."reply_at", f."reply_id")));
	ELSIF TG_OP = 'DELETE' THEN
		SELECT array_agg(DISTINCT o."conversation_id") INTO ids FROM old_rows o
		JOIN "report_first_responses" f ON f."conversation_id" = o."conversation_id" AND o."id" IN (f."inbound_id", f."reply_id");
	ELSE
		delta := 'SELECT x.* FROM old_rows o JOIN new_rows n ON n.id = o.id
			CROSS JOIN LATERAL (VALUES
				(o.account_id, o.created_at, o.direction, o.sender_type, o.sender_user_id, o.status, -1),
				(n.account_id, n.created_at, n.direction, n.sender_type, n.sender_user_id, n.status, 1)
			) AS x(account_id, created_at, direction, sender_type, sender_user_id, status, sign)
			WHERE (o.account_id, o.created_at, o.direction, o.sender_type, o.sender_user_id, o.status = ''failed'')
				IS DISTINCT FROM (n.account_id, n.created_at, n.direction, n.sender_type, n.sender_user_id, n.status = ''failed'')';
		SELECT array_agg(DISTINCT x."conversation_id") INTO ids FROM old_rows o JOIN new_rows n ON n."id" = o."id"
		CROSS JOIN LATERAL (VALUES (o."conversation_id"), (n."conversation_id")) AS x("conversation_id")
		WHERE (o."conversation_id", o."created_at", o."direction", o."sender_type", o."sender_user_id", o."status" IN ('sent', 'delivered', 'read'))
			IS DISTINCT FROM (n."conversation_id", n."created_at", n."direction", n."sender_type", n."sender_user_id", n."status" IN ('sent', 'delivered', 'read'));
	END IF;

	IF TG_OP = 'DELETE' THEN
		-- Only rows that are still there are taken from: when a whole account goes, its counts may
		-- already be gone, and nothing may be written for it.
		UPDATE "report_message_slots" s SET
			"received" = s."received" - d."received", "sent" = s."sent" - d."sent",
			"sent_by_agents" = s."sent_by_agents" - d."sent_by_agents",
			"automated" = s."automated" - d."automated", "failed" = s."failed" - d."failed"
		FROM (
			SELECT o."account_id", date_bin('15 minutes', o."created_at", timestamptz '2000-01-01 00:00:00+00') AS slot,
				count(*) FILTER (WHERE o."direction" = 'inbound') AS received,
				count(*) FILTER (WHERE o."direction" = 'outbound') AS sent,
				count(*) FILTER (WHERE o."direction" = 'outbound' AND o."sender_type" = 'user') AS sent_by_agents,
				count(*) FILTER (WHERE o."direction" = 'outbound' AND o."sender_type" = 'automation') AS automated,
				count(*) FILTER (WHERE o."direction" = 'outbound' AND o."status" = 'failed') AS failed
			FROM old_rows o GROUP BY 1, 2
		) d
		WHERE s."account_id" = d."account_id" AND s."slot" = d.slot;
		UPDATE "report_agent_days" a SET "sent" = a."sent" - d."sent", "sent_ok" = a."sent_ok" - d."sent_ok"
		FROM (
			SELECT o."account_id", date_bin('1 day', o."created_at", timestamptz '2000-01-01 00:00:00+00') AS day, o."sender_user_id" AS user_id,
				count(*) AS sent, count(*) FILTER (WHERE o."status" <> 'failed') AS sent_ok
			FROM old_rows o
			WHERE o."direction" = 'outbound' AND o."sender_type" = 'user' AND o."sender_user_id" IS NOT NULL
			GROUP BY 1, 2, 3
		) d
		WHERE a."account_id" = d."account_id" AND a."day" = d.day AND a."user_id" = d.user_id;
		IF ids IS NOT NULL THEN
			PERFORM chorus_report_first_responses_refresh(ids);
		END IF;
		RETURN NULL;
	END IF;

	EXECUTE format($sql$
		WITH d AS (%s)
		INSERT INTO "report_message_slots" AS s ("account_id", "slot", "received", "sent", "sent_by_agents", "automated", "failed")
		SELECT d.account_id, date_bin('15 minutes', d.created_at, timestamptz '2000-01-01 00:00:00+00'),
			coalesce(sum(d.sign) FILTER (WHERE d.direction = 'inbound'), 0),
			coalesce(sum(d.sign) FILTER (WHERE d.direction = 'outbound'), 0),
			coalesce(sum(d.sign) FILTER (WHERE d.direction = 'outbound' AND d.sender_type = 'user'), 0),
			coalesce(sum(d.sign) FILTER (WHERE d.direction = 'outbound' AND d.sender_type = 'automation'), 0),
			coalesce(sum(d.sign) FILTER (WHERE d.direction = 'outbound' AND d.status = 'failed'), 0)
		FROM d
		GROUP BY 1, 2
		ORDER BY 1, 2
		ON CONFLICT ("account_id", "slot") DO UPDATE SET
			"received" = s."received" + excluded."received", "sent" = s."sent" + excluded."sent",
			"sent_by_agents" = s."sent_by_agents" + excluded."sent_by_agents",
			"automated" = s."automated" + excluded."automated", "failed" = s."failed" + excluded."failed"
	$sql$, delta);

	EXECUTE format($sql$
		WITH d AS (%s)
		INSERT INTO "report_agent_days" AS a ("account_id", "day", "user_id", "sent", "sent_ok")
		SELECT d.account_id, date_bin('1 day', d.created_at, timestamptz '2000-01-01 00:00:00+00'), d.sender_user_id,
			sum(d.sign), coalesce(sum(d.sign) FILTER (WHERE d.status <> 'failed'), 0)
		FROM d
		WHERE d.direction = 'outbound' AND d.sender_type = 'user' AND d.sender_user_id IS NOT NULL
		GROUP BY 1, 2, 3
		ORDER BY 1, 2, 3
		ON CONFLICT ("account_id", "day", "user_id") DO UPDATE SET
			"sent" = a."sent" + excluded."sent", "sent_ok" = a."sent_ok" + excluded."sent_ok"
	$sql$, delta);

	IF ids IS NOT NULL THEN
		PERFORM chorus_report_first_responses_refresh(ids);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "messages_report_insert" AFTER INSERT ON "messages"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_messages();
--> statement-breakpoint
CREATE TRIGGER "messages_report_update" AFTER UPDATE ON "messages"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_messages();
--> statement-breakpoint
CREATE TRIGGER "messages_report_delete" AFTER DELETE ON "messages"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_messages();
--> statement-breakpoint
-- What the messages already written add up to.
INSERT INTO "report_message_slots" ("account_id", "slot", "received", "sent", "sent_by_agents", "automated", "failed")
SELECT "account_id", date_bin('15 minutes', "created_at", timestamptz '2000-01-01 00:00:00+00'),
	count(*) FILTER (WHERE "direction" = 'inbound'),
	count(*) FILTER (WHERE "direction" = 'outbound'),
	count(*) FILTER (WHERE "direction" = 'outbound' AND "sender_type" = 'user'),
	count(*) FILTER (WHERE "direction" = 'outbound' AND "sender_type" = 'automation'),
	count(*) FILTER (WHERE "direction" = 'outbound' AND "status" = 'failed')
FROM "messages" GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "report_agent_days" ("account_id", "day", "user_id", "sent", "sent_ok")
SELECT "account_id", date_bin('1 day', "created_at", timestamptz '2000-01-01 00:00:00+00'), "sender_user_id",
	count(*), count(*) FILTER (WHERE "status" <> 'failed')
FROM "messages"
WHERE "direction" = 'outbound' AND "sender_type" = 'user' AND "sender_user_id" IS NOT NULL
GROUP BY 1, 2, 3;
--> statement-breakpoint
SELECT chorus_report_first_responses_refresh(array(SELECT DISTINCT "conversation_id" FROM "messages" WHERE "direction" = 'inbound'));
--> statement-breakpoint
-- SLA targets met and breached per UTC day, policy and person ('' for nobody), kept by a
-- statement trigger on sla_outcomes in the transaction that records them.
CREATE TABLE "report_sla_days" (
	"account_id" text NOT NULL,
	"day" timestamp (3) with time zone NOT NULL,
	"sla_policy_id" text NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"met" integer DEFAULT 0 NOT NULL,
	"breached" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_sla_days_pk" PRIMARY KEY ("account_id", "day", "sla_policy_id", "user_id")
);
--> statement-breakpoint
ALTER TABLE "report_sla_days" ADD CONSTRAINT "report_sla_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_sla_outcomes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	delta text;
BEGIN
	IF TG_OP = 'DELETE' THEN
		-- Only rows that are still there are taken from (an account going takes its counts with it).
		UPDATE "report_sla_days" s SET "met" = s."met" - d.met, "breached" = s."breached" - d.breached
		FROM (
			SELECT o."account_id", date_bin('1 day', o."created_at", timestamptz '2000-01-01 00:00:00+00') AS day, o."sla_policy_id",
				coalesce(o."user_id", '') AS user_id,
				count(*) FILTER (WHERE o."outcome" = 'met') AS met, count(*) FILTER (WHERE o."outcome" = 'breached') AS breached
			FROM old_rows o GROUP BY 1, 2, 3, 4
		) d
		WHERE s."account_id" = d."account_id" AND s."day" = d.day AND s."sla_policy_id" = d."sla_policy_id" AND s."user_id" = d.user_id;
		RETURN NULL;
	END IF;
	delta := 'SELECT n.account_id, n.created_at, n.sla_policy_id, n.user_id, n.outcome, 1 AS sign FROM new_rows n';
	EXECUTE format($sql$
		WITH d AS (%s)
		INSERT INTO "report_sla_days" AS s ("account_id", "day", "sla_policy_id", "user_id", "met", "breached")
		SELECT d.account_id, date_bin('1 day', d.created_at, timestamptz '2000-01-01 00:00:00+00'), d.sla_policy_id, coalesce(d.user_id, ''),
			coalesce(sum(d.sign) FILTER (WHERE d.outcome = 'met'), 0), coalesce(sum(d.sign) FILTER (WHERE d.outcome = 'breached'), 0)
		FROM d
		GROUP BY 1, 2, 3, 4
		ORDER BY 1, 2, 3, 4
		ON CONFLICT ("account_id", "day", "sla_policy_id", "user_id") DO UPDATE SET
			"met" = s."met" + excluded."met", "breached" = s."breached" + excluded."breached"
	$sql$, delta);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "sla_outcomes_report_insert" AFTER INSERT ON "sla_outcomes"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_sla_outcomes();
--> statement-breakpoint
CREATE TRIGGER "sla_outcomes_report_delete" AFTER DELETE ON "sla_outcomes"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_sla_outcomes();
--> statement-breakpoint
INSERT INTO "report_sla_days" ("account_id", "day", "sla_policy_id", "user_id", "met", "breached")
SELECT "account_id", date_bin('1 day', "created_at", timestamptz '2000-01-01 00:00:00+00'), "sla_policy_id", coalesce("user_id", ''),
	count(*) FILTER (WHERE "outcome" = 'met'), count(*) FILTER (WHERE "outcome" = 'breached')
FROM "sla_outcomes" GROUP BY 1, 2, 3, 4;
