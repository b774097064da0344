-- Medians over long ranges are read from per-day histograms, not from every close or first
-- response of the range. A duration falls into a fixed log-scale bucket: bucket 0 holds
-- [0, 1) s, bucket b >= 1 holds [2^((b-1)/4), 2^(b/4)) s (each about 19% wider than the one
-- before; a year is bucket 100). Bucket -1 is a first response still unanswered.
CREATE OR REPLACE FUNCTION chorus_report_bucket(seconds float8) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT CASE
		WHEN seconds IS NULL THEN -1
		WHEN seconds < 1 THEN 0
		ELSE least(1 + floor(4 * ln(seconds) / ln(2)), 32000)
	END::smallint
$$;
--> statement-breakpoint
-- Per account, kind ('resolution' by the close's UTC day, 'first_response' by the first
-- question's UTC day), person ('' for nobody) and bucket: how many and their seconds summed.
CREATE TABLE "report_duration_days" (
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"day" timestamp (3) with time zone NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"bucket" smallint NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"total_s" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "report_duration_days_pk" PRIMARY KEY ("account_id", "kind", "day", "user_id", "bucket")
);
--> statement-breakpoint
ALTER TABLE "report_duration_days" ADD CONSTRAINT "report_duration_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- A closed conversation whose close was never recorded as a resolution (filed away closed on
-- arrival, or closed before closes were recorded) counts from its own row while it stays
-- closed: those rows, in the shape of reporting_events, kept by triggers on conversations and
-- reporting_events.
CREATE TABLE "report_implicit_closes" (
	"conversation_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text DEFAULT 'conversation_resolved' NOT NULL,
	"user_id" text,
	"value_s" double precision NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_implicit_closes" ADD CONSTRAINT "report_implicit_closes_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "report_implicit_closes_account_created_idx" ON "report_implicit_closes" USING btree ("account_id", "created_at");
--> statement-breakpoint
-- Every close (recorded or implicit) that follows an earlier close of the same conversation:
-- by anyone (user_id '') and by the same person (user_id set), with the earlier one's time. A
-- range's closed conversations are its closes less those whose earlier close is in the range too.
CREATE TABLE "report_close_repeats" (
	"account_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"closed_at" timestamp (3) with time zone NOT NULL,
	"previous_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_close_repeats" ADD CONSTRAINT "report_close_repeats_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "report_close_repeats_account_closed_idx" ON "report_close_repeats" USING btree ("account_id", "closed_at");
--> statement-breakpoint
CREATE INDEX "report_close_repeats_conversation_idx" ON "report_close_repeats" USING btree ("conversation_id");
--> statement-breakpoint
-- The conversations' implicit closes computed afresh (only for accounts that still exist: an
-- account being deleted takes its rows with it and nothing may be written for it).
CREATE OR REPLACE FUNCTION chorus_report_implicit_closes_refresh(ids text[]) RETURNS void
LANGUAGE sql AS $$
	WITH wanted AS MATERIALIZED (
		SELECT c."id", c."account_id", c."assigned_to" AS user_id,
			extract(epoch from (c."closed_at" - coalesce(c."opened_at", c."created_at")))::float8 AS value_s, c."closed_at"
		FROM "conversations" c
		JOIN unnest(ids) AS x(id) ON c."id" = x.id
		WHERE c."closed_at" IS NOT NULL
			AND NOT EXISTS (
				SELECT 1 FROM "reporting_events" r
				WHERE r."conversation_id" = c."id" AND r."account_id" = c."account_id" AND r."name" = 'conversation_resolved' AND r."created_at" = c."closed_at"
			)
	)
	DELETE FROM "report_implicit_closes" i
	USING unnest(ids) AS x(id)
	WHERE i."conversation_id" = x.id
		AND NOT EXISTS (
			SELECT 1 FROM wanted w
			WHERE w."id" = i."conversation_id" AND w."account_id" = i."account_id" AND w.user_id IS NOT DISTINCT FROM i."user_id"
				AND w.value_s = i."value_s" AND w."closed_at" = i."created_at"
		);
	WITH wanted AS MATERIALIZED (
		SELECT c."id", c."account_id", c."assigned_to" AS user_id,
			extract(epoch from (c."closed_at" - coalesce(c."opened_at", c."created_at")))::float8 AS value_s, c."closed_at"
		FROM "conversations" c
		JOIN unnest(ids) AS x(id) ON c."id" = x.id
		WHERE c."closed_at" IS NOT NULL
			AND NOT EXISTS (
				SELECT 1 FROM "reporting_events" r
				WHERE r."conversation_id" = c."id" AND r."account_id" = c."account_id" AND r."name" = 'conversation_resolved' AND r."created_at" = c."closed_at"
			)
	)
	INSERT INTO "report_implicit_closes" ("conversation_id", "account_id", "user_id", "value_s", "created_at")
	SELECT w."id", w."account_id", w.user_id, w.value_s, w."closed_at"
	FROM wanted w JOIN "accounts" a ON a."id" = w."account_id"
	ORDER BY w."id"
	ON CONFLICT ("conversation_id") DO NOTHING;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_close_repeats_refresh(ids text[]) RETURNS void
LANGUAGE sql AS $$
	DELETE FROM "report_close_repeats" p USING unnest(ids) AS x(id) WHERE p."conversation_id" = x.id;
	WITH closes AS (
		SELECT r."account_id", r."conversation_id", r."user_id", r."created_at"
		FROM "reporting_events" r JOIN unnest(ids) AS x(id) ON r."conversation_id" = x.id
		WHERE r."name" = 'conversation_resolved'
		UNION ALL
		SELECT i."account_id", i."conversation_id", i."user_id", i."created_at"
		FROM "report_implicit_closes" i JOIN unnest(ids) AS x(id) ON i."conversation_id" = x.id
	),
	ordered AS (
		SELECT c.*,
			lag(c."created_at") OVER (PARTITION BY c."account_id", c."conversation_id" ORDER BY c."created_at") AS previous_any,
			lag(c."created_at") OVER (PARTITION BY c."account_id", c."conversation_id", c."user_id" ORDER BY c."created_at") AS previous_own
		FROM closes c
	)
	INSERT INTO "report_close_repeats" ("account_id", "conversation_id", "user_id", "closed_at", "previous_at")
	SELECT o."account_id", o."conversation_id", '', o."created_at", o.previous_any
	FROM ordered o JOIN "accounts" a ON a."id" = o."account_id" WHERE o.previous_any IS NOT NULL
	UNION ALL
	SELECT o."account_id", o."conversation_id", o."user_id", o."created_at", o.previous_own
	FROM ordered o JOIN "accounts" a ON a."id" = o."account_id" WHERE o."user_id" IS NOT NULL AND o.previous_own IS NOT NULL;
$$;
--> statement-breakpoint
-- Closes (recorded in reporting_events or implicit) into the per-day histograms, their implicit
-- counterparts and their repeats, in the transaction of the change.
CREATE OR REPLACE FUNCTION chorus_report_closes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	ids text[];
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		-- Only rows that are still there are taken from (an account going takes its counts with it).
		UPDATE "report_duration_days" d SET "n" = d."n" - x.n, "total_s" = d."total_s" - x.total_s
		FROM (
			SELECT o."account_id", date_bin('1 day', o."created_at", timestamptz '2000-01-01 00:00:00+00') AS day,
				coalesce(o."user_id", '') AS user_id, chorus_report_bucket(greatest(o."value_s", 0)) AS bucket,
				count(*)::int AS n, sum(greatest(o."value_s", 0)) AS total_s
			FROM old_rows o WHERE o."name" = 'conversation_resolved' GROUP BY 1, 2, 3, 4
		) x
		WHERE d."account_id" = x."account_id" AND d."kind" = 'resolution' AND d."day" = x.day AND d."user_id" = x.user_id AND d."bucket" = x.bucket;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO "report_duration_days" AS d ("account_id", "kind", "day", "user_id", "bucket", "n", "total_s")
		SELECT n."account_id", 'resolution', date_bin('1 day', n."created_at", timestamptz '2000-01-01 00:00:00+00'),
			coalesce(n."user_id", ''), chorus_report_bucket(greatest(n."value_s", 0)), count(*), sum(greatest(n."value_s", 0))
		FROM new_rows n JOIN "accounts" a ON a."id" = n."account_id"
		WHERE n."name" = 'conversation_resolved'
		GROUP BY 1, 2, 3, 4, 5
		ORDER BY 1, 2, 3, 4, 5
		ON CONFLICT ("account_id", "kind", "day", "user_id", "bucket") DO UPDATE SET
			"n" = d."n" + excluded."n", "total_s" = d."total_s" + excluded."total_s";
	END IF;

	IF TG_OP = 'INSERT' THEN
		SELECT array_agg(DISTINCT n."conversation_id") INTO ids FROM new_rows n WHERE n."name" = 'conversation_resolved';
	ELSIF TG_OP = 'DELETE' THEN
		SELECT array_agg(DISTINCT o."conversation_id") INTO ids FROM old_rows o WHERE o."name" = 'conversation_resolved';
	ELSE
		SELECT array_agg(DISTINCT x.id) INTO ids FROM (
			SELECT o."conversation_id" AS id FROM old_rows o UNION ALL SELECT n."conversation_id" FROM new_rows n
		) x;
	END IF;
	IF ids IS NOT NULL THEN
		IF TG_TABLE_NAME = 'reporting_events' THEN
			PERFORM chorus_report_implicit_closes_refresh(ids);
			-- A close recorded (or gone) can change whose answer a satisfaction score is.
			PERFORM chorus_report_ratings_refresh(ids);
		END IF;
		PERFORM chorus_report_close_repeats_refresh(ids);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- First responses (one row per conversation, kept by the triggers on messages) into the
-- per-day histograms; an unanswered one is bucket -1.
CREATE OR REPLACE FUNCTION chorus_report_first_response_days() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		UPDATE "report_duration_days" d SET "n" = d."n" - x.n, "total_s" = d."total_s" - x.total_s
		FROM (
			SELECT o."account_id", date_bin('1 day', o."inbound_at", timestamptz '2000-01-01 00:00:00+00') AS day,
				coalesce(o."reply_user_id", '') AS user_id,
				chorus_report_bucket(extract(epoch from (o."reply_at" - o."inbound_at"))::float8) AS bucket,
				count(*)::int AS n, coalesce(sum(extract(epoch from (o."reply_at" - o."inbound_at"))::float8), 0) AS total_s
			FROM old_rows o GROUP BY 1, 2, 3, 4
		) x
		WHERE d."account_id" = x."account_id" AND d."kind" = 'first_response' AND d."day" = x.day AND d."user_id" = x.user_id AND d."bucket" = x.bucket;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO "report_duration_days" AS d ("account_id", "kind", "day", "user_id", "bucket", "n", "total_s")
		SELECT n."account_id", 'first_response', date_bin('1 day', n."inbound_at", timestamptz '2000-01-01 00:00:00+00'),
			coalesce(n."reply_user_id", ''), chorus_report_bucket(extract(epoch from (n."reply_at" - n."inbound_at"))::float8),
			count(*), coalesce(sum(extract(epoch from (n."reply_at" - n."inbound_at"))::float8), 0)
		FROM new_rows n JOIN "accounts" a ON a."id" = n."account_id"
		GROUP BY 1, 2, 3, 4, 5
		ORDER BY 1, 2, 3, 4, 5
		ON CONFLICT ("account_id", "kind", "day", "user_id", "bucket") DO UPDATE SET
			"n" = d."n" + excluded."n", "total_s" = d."total_s" + excluded."total_s";
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- A conversation whose close, assignee or start changes has its implicit close computed afresh.
CREATE OR REPLACE FUNCTION chorus_report_conversation_closes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	ids text[];
BEGIN
	IF TG_OP = 'INSERT' THEN
		SELECT array_agg(n."id") INTO ids FROM new_rows n WHERE n."closed_at" IS NOT NULL;
	ELSE
		SELECT array_agg(n."id") INTO ids FROM old_rows o JOIN new_rows n ON n."id" = o."id"
		WHERE (o."closed_at" IS NOT NULL OR n."closed_at" IS NOT NULL)
			AND (o."account_id", o."closed_at", o."assigned_to", o."opened_at", o."created_at")
				IS DISTINCT FROM (n."account_id", n."closed_at", n."assigned_to", n."opened_at", n."created_at");
	END IF;
	IF ids IS NOT NULL THEN
		PERFORM chorus_report_implicit_closes_refresh(ids);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- What the data already written adds up to (before the triggers, so nothing counts twice).
SELECT chorus_report_implicit_closes_refresh(array(SELECT "id" FROM "conversations" WHERE "closed_at" IS NOT NULL));
--> statement-breakpoint
INSERT INTO "report_duration_days" ("account_id", "kind", "day", "user_id", "bucket", "n", "total_s")
SELECT x."account_id", 'resolution', date_bin('1 day', x."created_at", timestamptz '2000-01-01 00:00:00+00'),
	coalesce(x."user_id", ''), chorus_report_bucket(greatest(x."value_s", 0)), count(*), sum(greatest(x."value_s", 0))
FROM (
	SELECT "account_id", "user_id", "value_s", "created_at" FROM "reporting_events" WHERE "name" = 'conversation_resolved'
	UNION ALL
	SELECT "account_id", "user_id", "value_s", "created_at" FROM "report_implicit_closes"
) x
GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "report_duration_days" ("account_id", "kind", "day", "user_id", "bucket", "n", "total_s")
SELECT f."account_id", 'first_response', date_bin('1 day', f."inbound_at", timestamptz '2000-01-01 00:00:00+00'),
	coalesce(f."reply_user_id", ''), chorus_report_bucket(extract(epoch from (f."reply_at" - f."inbound_at"))::float8),
	count(*), coalesce(sum(extract(epoch from (f."reply_at" - f."inbound_at"))::float8), 0)
FROM "report_first_responses" f
GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
SELECT chorus_report_close_repeats_refresh(array(
	SELECT x."conversation_id" FROM (
		SELECT "conversation_id" FROM "reporting_events" WHERE "name" = 'conversation_resolved'
		UNION ALL
		SELECT "conversation_id" FROM "report_implicit_closes"
	) x
	GROUP BY 1 HAVING count(*) > 1
));
--> statement-breakpoint
CREATE TRIGGER "reporting_events_report_insert" AFTER INSERT ON "reporting_events"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_closes();
--> statement-breakpoint
CREATE TRIGGER "reporting_events_report_update" AFTER UPDATE ON "reporting_events"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_closes();
--> statement-breakpoint
CREATE TRIGGER "reporting_events_report_delete" AFTER DELETE ON "reporting_events"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_closes();
--> statement-breakpoint
CREATE TRIGGER "report_implicit_closes_report_insert" AFTER INSERT ON "report_implicit_closes"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_closes();
--> statement-breakpoint
CREATE TRIGGER "report_implicit_closes_report_update" AFTER UPDATE ON "report_implicit_closes"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_closes();
--> statement-breakpoint
CREATE TRIGGER "report_implicit_closes_report_delete" AFTER DELETE ON "report_implicit_closes"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_closes();
--> statement-breakpoint
CREATE TRIGGER "report_first_responses_days_insert" AFTER INSERT ON "report_first_responses"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_first_response_days();
--> statement-breakpoint
CREATE TRIGGER "report_first_responses_days_update" AFTER UPDATE ON "report_first_responses"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_first_response_days();
--> statement-breakpoint
CREATE TRIGGER "report_first_responses_days_delete" AFTER DELETE ON "report_first_responses"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_first_response_days();
--> statement-breakpoint
CREATE TRIGGER "conversations_report_closes_insert" AFTER INSERT ON "conversations"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_conversation_closes();
--> statement-breakpoint
CREATE TRIGGER "conversations_report_closes_update" AFTER UPDATE ON "conversations"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_conversation_closes();
--> statement-breakpoint
-- Each `conversation.assigned` event as a row (who was given which conversation, when, and when
-- the same person was last given it before), and how many per account, UTC day and person, kept
-- by statement triggers on events in the transaction that records them. A range's assignments
-- are its rows less those whose earlier one for the same person is in the range too.
CREATE TABLE "report_assignments" (
	"event_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"previous_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "report_assignments" ADD CONSTRAINT "report_assignments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "report_assignments_account_created_idx" ON "report_assignments" USING btree ("account_id", "created_at");
--> statement-breakpoint
CREATE INDEX "report_assignments_conversation_idx" ON "report_assignments" USING btree ("conversation_id", "user_id", "created_at");
--> statement-breakpoint
CREATE INDEX "report_assignments_repeats_idx" ON "report_assignments" USING btree ("account_id", "created_at") WHERE "previous_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "report_assignment_days" (
	"account_id" text NOT NULL,
	"day" timestamp (3) with time zone NOT NULL,
	"user_id" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_assignment_days_pk" PRIMARY KEY ("account_id", "day", "user_id")
);
--> statement-breakpoint
ALTER TABLE "report_assignment_days" ADD CONSTRAINT "report_assignment_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_assignments_previous(ids text[]) RETURNS void
LANGUAGE sql AS $$
	UPDATE "report_assignments" r SET "previous_at" = x.previous_at
	FROM (
		SELECT a."event_id",
			lag(a."created_at") OVER (PARTITION BY a."conversation_id", a."user_id" ORDER BY a."created_at", a."event_id") AS previous_at
		FROM "report_assignments" a JOIN unnest(ids) AS c(id) ON a."conversation_id" = c.id
	) x
	WHERE r."event_id" = x."event_id" AND r."previous_at" IS DISTINCT FROM x.previous_at;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_assignment_events() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	ids text[];
BEGIN
	IF TG_OP = 'INSERT' THEN
		WITH added AS (
			INSERT INTO "report_assignments" ("event_id", "account_id", "conversation_id", "user_id", "created_at")
			SELECT n."id", n."account_id", n."data"->'conversation'->>'id', n."data"->'user'->>'id', n."created_at"
			FROM new_rows n JOIN "accounts" a ON a."id" = n."account_id"
			WHERE n."type" = 'conversation.assigned' AND n."data"->'conversation'->>'id' IS NOT NULL AND n."data"->'user'->>'id' IS NOT NULL
			ORDER BY n."id"
			RETURNING "account_id", "conversation_id", "user_id", "created_at"
		),
		counted AS (
			INSERT INTO "report_assignment_days" AS d ("account_id", "day", "user_id", "n")
			SELECT "account_id", date_bin('1 day', "created_at", timestamptz '2000-01-01 00:00:00+00'), "user_id", count(*)
			FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
			ON CONFLICT ("account_id", "day", "user_id") DO UPDATE SET "n" = d."n" + excluded."n"
		)
		SELECT array_agg(DISTINCT "conversation_id") INTO ids FROM added;
	ELSE
		WITH removed AS (
			DELETE FROM "report_assignments" r USING old_rows o WHERE r."event_id" = o."id"
			RETURNING r."account_id", r."conversation_id", r."user_id", r."created_at"
		),
		counted AS (
			UPDATE "report_assignment_days" d SET "n" = d."n" - x.n
			FROM (
				SELECT "account_id", date_bin('1 day', "created_at", timestamptz '2000-01-01 00:00:00+00') AS day, "user_id", count(*)::int AS n
				FROM removed GROUP BY 1, 2, 3
			) x
			WHERE d."account_id" = x."account_id" AND d."day" = x.day AND d."user_id" = x."user_id"
		)
		SELECT array_agg(DISTINCT "conversation_id") INTO ids FROM removed;
	END IF;
	IF ids IS NOT NULL THEN
		PERFORM chorus_report_assignments_previous(ids);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "report_assignments" ("event_id", "account_id", "conversation_id", "user_id", "created_at")
SELECT e."id", e."account_id", e."data"->'conversation'->>'id', e."data"->'user'->>'id', e."created_at"
FROM "events" e
WHERE e."type" = 'conversation.assigned' AND e."data"->'conversation'->>'id' IS NOT NULL AND e."data"->'user'->>'id' IS NOT NULL;
--> statement-breakpoint
INSERT INTO "report_assignment_days" ("account_id", "day", "user_id", "n")
SELECT "account_id", date_bin('1 day', "created_at", timestamptz '2000-01-01 00:00:00+00'), "user_id", count(*)
FROM "report_assignments" GROUP BY 1, 2, 3;
--> statement-breakpoint
SELECT chorus_report_assignments_previous(array(
	SELECT "conversation_id" FROM "report_assignments" GROUP BY 1 HAVING count(*) > 1
));
--> statement-breakpoint
CREATE TRIGGER "events_report_assignments_insert" AFTER INSERT ON "events"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_assignment_events();
--> statement-breakpoint
CREATE TRIGGER "events_report_assignments_delete" AFTER DELETE ON "events"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_assignment_events();
--> statement-breakpoint
-- Conversations created per account and UTC day, kept by statement triggers on conversations.
CREATE TABLE "report_conversation_days" (
	"account_id" text NOT NULL,
	"day" timestamp (3) with time zone NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_conversation_days_pk" PRIMARY KEY ("account_id", "day")
);
--> statement-breakpoint
ALTER TABLE "report_conversation_days" ADD CONSTRAINT "report_conversation_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Each satisfaction answer with the agent it belongs to: the assignee at the close it answers
-- (the latest recorded close up to the answer), unless the conversation's own close in between
-- was never recorded, or no close was found: then the conversation's assignee. Counted per
-- account, UTC day, agent ('' for nobody) and score.
CREATE TABLE "report_ratings" (
	"conversation_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"rated_at" timestamp (3) with time zone NOT NULL,
	"score" integer NOT NULL,
	"user_id" text
);
--> statement-breakpoint
ALTER TABLE "report_ratings" ADD CONSTRAINT "report_ratings_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "report_ratings_account_rated_idx" ON "report_ratings" USING btree ("account_id", "rated_at");
--> statement-breakpoint
CREATE TABLE "report_rating_days" (
	"account_id" text NOT NULL,
	"day" timestamp (3) with time zone NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"score" integer NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_rating_days_pk" PRIMARY KEY ("account_id", "day", "user_id", "score")
);
--> statement-breakpoint
ALTER TABLE "report_rating_days" ADD CONSTRAINT "report_rating_days_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_ratings_refresh(ids text[]) RETURNS void
LANGUAGE sql AS $$
	WITH rated AS MATERIALIZED (
		SELECT c."id", c."account_id", c."csat_at", c."csat_score", c."closed_at", c."assigned_to"
		FROM "conversations" c JOIN unnest(ids) AS x(id) ON c."id" = x.id
		WHERE c."csat_score" IS NOT NULL AND c."csat_at" IS NOT NULL
	),
	last_close AS (
		SELECT DISTINCT ON (r."conversation_id") r."conversation_id", r."user_id", r."created_at"
		FROM "reporting_events" r JOIN rated c ON r."conversation_id" = c."id"
		WHERE r."account_id" = c."account_id" AND r."name" = 'conversation_resolved' AND r."created_at" <= c."csat_at"
		ORDER BY r."conversation_id", r."created_at" DESC
	),
	wanted AS (
		SELECT c."id", c."account_id", c."csat_at", c."csat_score",
			coalesce(
				CASE WHEN c."closed_at" <= c."csat_at" AND c."closed_at" > l."created_at" THEN NULL ELSE l."user_id" END,
				c."assigned_to"
			) AS user_id
		FROM rated c LEFT JOIN last_close l ON l."conversation_id" = c."id"
	)
	DELETE FROM "report_ratings" g
	USING unnest(ids) AS x(id)
	WHERE g."conversation_id" = x.id
		AND NOT EXISTS (
			SELECT 1 FROM wanted w
			WHERE w."id" = g."conversation_id" AND w."account_id" = g."account_id" AND w."csat_at" = g."rated_at"
				AND w."csat_score" = g."score" AND w.user_id IS NOT DISTINCT FROM g."user_id"
		);
	WITH rated AS MATERIALIZED (
		SELECT c."id", c."account_id", c."csat_at", c."csat_score", c."closed_at", c."assigned_to"
		FROM "conversations" c JOIN unnest(ids) AS x(id) ON c."id" = x.id
		WHERE c."csat_score" IS NOT NULL AND c."csat_at" IS NOT NULL
	),
	last_close AS (
		SELECT DISTINCT ON (r."conversation_id") r."conversation_id", r."user_id", r."created_at"
		FROM "reporting_events" r JOIN rated c ON r."conversation_id" = c."id"
		WHERE r."account_id" = c."account_id" AND r."name" = 'conversation_resolved' AND r."created_at" <= c."csat_at"
		ORDER BY r."conversation_id", r."created_at" DESC
	),
	wanted AS (
		SELECT c."id", c."account_id", c."csat_at", c."csat_score",
			coalesce(
				CASE WHEN c."closed_at" <= c."csat_at" AND c."closed_at" > l."created_at" THEN NULL ELSE l."user_id" END,
				c."assigned_to"
			) AS user_id
		FROM rated c LEFT JOIN last_close l ON l."conversation_id" = c."id"
	)
	INSERT INTO "report_ratings" ("conversation_id", "account_id", "rated_at", "score", "user_id")
	SELECT w."id", w."account_id", w."csat_at", w."csat_score", w.user_id
	FROM wanted w JOIN "accounts" a ON a."id" = w."account_id"
	ORDER BY w."id"
	ON CONFLICT ("conversation_id") DO NOTHING;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_rating_days() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		UPDATE "report_rating_days" d SET "n" = d."n" - x.n
		FROM (
			SELECT o."account_id", date_bin('1 day', o."rated_at", timestamptz '2000-01-01 00:00:00+00') AS day,
				coalesce(o."user_id", '') AS user_id, o."score", count(*)::int AS n
			FROM old_rows o GROUP BY 1, 2, 3, 4
		) x
		WHERE d."account_id" = x."account_id" AND d."day" = x.day AND d."user_id" = x.user_id AND d."score" = x."score";
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO "report_rating_days" AS d ("account_id", "day", "user_id", "score", "n")
		SELECT n."account_id", date_bin('1 day', n."rated_at", timestamptz '2000-01-01 00:00:00+00'), coalesce(n."user_id", ''), n."score", count(*)
		FROM new_rows n JOIN "accounts" a ON a."id" = n."account_id"
		GROUP BY 1, 2, 3, 4
		ORDER BY 1, 2, 3, 4
		ON CONFLICT ("account_id", "day", "user_id", "score") DO UPDATE SET "n" = d."n" + excluded."n";
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_conversation_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	ids text[];
BEGIN
	IF TG_OP = 'DELETE' THEN
		-- Only rows that are still there are taken from (an account going takes its counts with it).
		UPDATE "report_conversation_days" d SET "created" = d."created" - x.n
		FROM (
			SELECT o."account_id", date_bin('1 day', o."created_at", timestamptz '2000-01-01 00:00:00+00') AS day, count(*)::int AS n
			FROM old_rows o GROUP BY 1, 2
		) x
		WHERE d."account_id" = x."account_id" AND d."day" = x.day;
		RETURN NULL;
	END IF;

	-- The change as signed rows: +1 for each row as it is now, -1 for each row as it was (an
	-- update that changes nothing counted is left out).
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "report_conversation_days" AS d ("account_id", "day", "created")
		SELECT n."account_id", date_bin('1 day', n."created_at", timestamptz '2000-01-01 00:00:00+00'), count(*)
		FROM new_rows n JOIN "accounts" a ON a."id" = n."account_id"
		GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT ("account_id", "day") DO UPDATE SET "created" = d."created" + excluded."created";
		SELECT array_agg(n."id") INTO ids FROM new_rows n WHERE n."csat_score" IS NOT NULL;
	ELSE
		WITH changed AS (
			SELECT x.* FROM old_rows o JOIN new_rows n ON n."id" = o."id"
			CROSS JOIN LATERAL (VALUES (o."account_id", o."created_at", -1), (n."account_id", n."created_at", 1)) AS x(account_id, created_at, sign)
			WHERE (o."account_id", o."created_at") IS DISTINCT FROM (n."account_id", n."created_at")
		)
		INSERT INTO "report_conversation_days" AS d ("account_id", "day", "created")
		SELECT c.account_id, date_bin('1 day', c.created_at, timestamptz '2000-01-01 00:00:00+00'), sum(c.sign)
		FROM changed c JOIN "accounts" a ON a."id" = c.account_id
		GROUP BY 1, 2 HAVING sum(c.sign) <> 0 ORDER BY 1, 2
		ON CONFLICT ("account_id", "day") DO UPDATE SET "created" = d."created" + excluded."created";
		SELECT array_agg(n."id") INTO ids FROM old_rows o JOIN new_rows n ON n."id" = o."id"
		WHERE (o."csat_score" IS NOT NULL OR n."csat_score" IS NOT NULL)
			AND (o."account_id", o."csat_score", o."csat_at", o."closed_at", o."assigned_to")
				IS DISTINCT FROM (n."account_id", n."csat_score", n."csat_at", n."closed_at", n."assigned_to");
	END IF;
	IF ids IS NOT NULL THEN
		PERFORM chorus_report_ratings_refresh(ids);
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "report_conversation_days" ("account_id", "day", "created")
SELECT "account_id", date_bin('1 day', "created_at", timestamptz '2000-01-01 00:00:00+00'), count(*)
FROM "conversations" GROUP BY 1, 2;
--> statement-breakpoint
SELECT chorus_report_ratings_refresh(array(SELECT "id" FROM "conversations" WHERE "csat_score" IS NOT NULL));
--> statement-breakpoint
INSERT INTO "report_rating_days" ("account_id", "day", "user_id", "score", "n")
SELECT "account_id", date_bin('1 day', "rated_at", timestamptz '2000-01-01 00:00:00+00'), coalesce("user_id", ''), "score", count(*)
FROM "report_ratings" GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER "report_ratings_days_insert" AFTER INSERT ON "report_ratings"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_rating_days();
--> statement-breakpoint
CREATE TRIGGER "report_ratings_days_update" AFTER UPDATE ON "report_ratings"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_rating_days();
--> statement-breakpoint
CREATE TRIGGER "report_ratings_days_delete" AFTER DELETE ON "report_ratings"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_rating_days();
--> statement-breakpoint
CREATE TRIGGER "conversations_report_counts_insert" AFTER INSERT ON "conversations"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_conversation_counts();
--> statement-breakpoint
CREATE TRIGGER "conversations_report_counts_update" AFTER UPDATE ON "conversations"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_conversation_counts();
--> statement-breakpoint
CREATE TRIGGER "conversations_report_counts_delete" AFTER DELETE ON "conversations"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_conversation_counts();
