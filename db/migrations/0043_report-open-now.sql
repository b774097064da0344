-- The "right now" figures of the reports (conversations open, unassigned, and assigned to each
-- person) as counts kept with every change instead of a pass over the account's conversations
-- at each read: one row per account, status ('open' or 'assigned') and assignee ('' for nobody),
-- changed by statement triggers on conversations in the transaction of the change. Only a
-- change of account, status or assignee touches a row (a new message, a label or a priority
-- does not); such changes of one account wait for each other's commit (one lock per account,
-- see chorus_report_open_now_lock), changes of other accounts and every other update do not.
CREATE TABLE IF NOT EXISTS "report_open_now" (
	"account_id" text NOT NULL,
	"status" text NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_open_now_pk" PRIMARY KEY("account_id","status","user_id")
);
--> statement-breakpoint
ALTER TABLE "report_open_now" ADD CONSTRAINT "report_open_now_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_open_now_lock(account_ids text[]) RETURNS void
LANGUAGE sql AS $$
	-- One lock per account, taken before any of its rows and held to the end of the transaction:
	-- a transaction that opens a conversation and then assigns it takes the "open" row before
	-- the "assigned" one, one that only assigns takes them the other way round; without this
	-- lock the two could each hold the row the other waits for (a deadlock on PostgreSQL).
	SELECT pg_advisory_xact_lock(hashtext('chorus_report_open_now'), hashtext(a))
	FROM (SELECT DISTINCT a FROM unnest(account_ids) AS a ORDER BY 1) s;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_report_open_now() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	accounts_changed text[];
BEGIN
	-- The change as signed rows: -1 for each open row as it was, +1 for each open row as it is
	-- now; rows whose account, status and assignee did not change are left out.
	IF TG_OP = 'INSERT' THEN
		SELECT array_agg(DISTINCT n."account_id") INTO accounts_changed FROM new_rows n WHERE n."status" IN ('open', 'assigned');
		IF accounts_changed IS NULL THEN RETURN NULL; END IF;
		PERFORM chorus_report_open_now_lock(accounts_changed);
		INSERT INTO "report_open_now" AS d ("account_id", "status", "user_id", "n")
		SELECT n."account_id", n."status", coalesce(n."assigned_to", ''), count(*)
		FROM new_rows n JOIN "accounts" a ON a."id" = n."account_id"
		WHERE n."status" IN ('open', 'assigned')
		GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT ("account_id", "status", "user_id") DO UPDATE SET "n" = d."n" + excluded."n";
	ELSIF TG_OP = 'DELETE' THEN
		SELECT array_agg(DISTINCT o."account_id") INTO accounts_changed FROM old_rows o WHERE o."status" IN ('open', 'assigned');
		IF accounts_changed IS NULL THEN RETURN NULL; END IF;
		PERFORM chorus_report_open_now_lock(accounts_changed);
		-- Only rows that are still there are taken from (an account going takes its counts with it).
		UPDATE "report_open_now" d SET "n" = d."n" - x.n
		FROM (
			SELECT o."account_id", o."status", coalesce(o."assigned_to", '') AS user_id, count(*)::int AS n
			FROM old_rows o WHERE o."status" IN ('open', 'assigned') GROUP BY 1, 2, 3
		) x
		WHERE d."account_id" = x."account_id" AND d."status" = x."status" AND d."user_id" = x.user_id;
	ELSE
		SELECT array_agg(DISTINCT x.account_id) INTO accounts_changed
		FROM old_rows o JOIN new_rows n ON n."id" = o."id"
		CROSS JOIN LATERAL (VALUES (o."account_id"), (n."account_id")) AS x(account_id)
		WHERE (o."account_id", o."status", o."assigned_to") IS DISTINCT FROM (n."account_id", n."status", n."assigned_to")
			AND (o."status" IN ('open', 'assigned') OR n."status" IN ('open', 'assigned'));
		-- Most updates (a new message, a label, a priority) change no count and take no lock.
		IF accounts_changed IS NULL THEN RETURN NULL; END IF;
		PERFORM chorus_report_open_now_lock(accounts_changed);
		WITH changed AS (
			SELECT x.* FROM old_rows o JOIN new_rows n ON n."id" = o."id"
			CROSS JOIN LATERAL (VALUES (o."account_id", o."status", o."assigned_to", -1), (n."account_id", n."status", n."assigned_to", 1))
				AS x(account_id, status, assigned_to, sign)
			WHERE (o."account_id", o."status", o."assigned_to") IS DISTINCT FROM (n."account_id", n."status", n."assigned_to")
				AND (o."status" IN ('open', 'assigned') OR n."status" IN ('open', 'assigned'))
		)
		INSERT INTO "report_open_now" AS d ("account_id", "status", "user_id", "n")
		SELECT c.account_id, c.status, coalesce(c.assigned_to, ''), sum(c.sign)
		FROM changed c JOIN "accounts" a ON a."id" = c.account_id
		WHERE c.status IN ('open', 'assigned')
		GROUP BY 1, 2, 3 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3
		ON CONFLICT ("account_id", "status", "user_id") DO UPDATE SET "n" = d."n" + excluded."n";
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "report_open_now" ("account_id", "status", "user_id", "n")
SELECT "account_id", "status", coalesce("assigned_to", ''), count(*)
FROM "conversations" WHERE "status" IN ('open', 'assigned') GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER "conversations_report_open_now_insert" AFTER INSERT ON "conversations"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_open_now();
--> statement-breakpoint
CREATE TRIGGER "conversations_report_open_now_update" AFTER UPDATE ON "conversations"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_open_now();
--> statement-breakpoint
CREATE TRIGGER "conversations_report_open_now_delete" AFTER DELETE ON "conversations"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_report_open_now();
