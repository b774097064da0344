-- The account's conversations counted as they change, instead of a pass over them at each read:
-- one row per account, status, assignee ('' for nobody) and whether customer messages are
-- unread, kept by statement triggers on conversations in the transaction of the change. The
-- inbox's filter tabs and the reports' "right now" figures read these few rows. Only a change
-- of account, status, assignee, or unread to read (and back) touches a row (a new message's
-- preview, a label or a priority does not); such changes of one account wait for each other's
-- commit (one lock per account, see chorus_conversation_counts_lock), changes of other
-- accounts and every other update do not.
CREATE TABLE IF NOT EXISTS "conversation_counts" (
	"account_id" text NOT NULL,
	"status" text NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"unread" boolean DEFAULT false NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "conversation_counts_pk" PRIMARY KEY("account_id","status","user_id","unread")
);
--> statement-breakpoint
ALTER TABLE "conversation_counts" ADD CONSTRAINT "conversation_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_conversation_counts_lock(account_ids text[]) RETURNS void
LANGUAGE sql AS $$
	-- One lock per account, taken before any of its rows and held to the end of the transaction:
	-- a transaction that opens a conversation and then assigns it takes the "open" row before
	-- the "assigned" one, one that only assigns takes them the other way round; without this
	-- lock the two could each hold the row the other waits for (a deadlock on PostgreSQL).
	SELECT pg_advisory_xact_lock(hashtext('chorus_conversation_counts'), hashtext(a))
	FROM (SELECT DISTINCT a FROM unnest(account_ids) AS a ORDER BY 1) s;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_conversation_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	accounts_changed text[];
BEGIN
	IF TG_OP = 'INSERT' THEN
		SELECT array_agg(DISTINCT n."account_id") INTO accounts_changed FROM new_rows n;
		IF accounts_changed IS NULL THEN RETURN NULL; END IF;
		PERFORM chorus_conversation_counts_lock(accounts_changed);
		INSERT INTO "conversation_counts" AS d ("account_id", "status", "user_id", "unread", "n")
		SELECT n."account_id", n."status", coalesce(n."assigned_to", ''), n."unread_count" > 0, count(*)
		FROM new_rows n JOIN "accounts" a ON a."id" = n."account_id"
		GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
		ON CONFLICT ("account_id", "status", "user_id", "unread") DO UPDATE SET "n" = d."n" + excluded."n";
	ELSIF TG_OP = 'DELETE' THEN
		SELECT array_agg(DISTINCT o."account_id") INTO accounts_changed FROM old_rows o;
		IF accounts_changed IS NULL THEN RETURN NULL; END IF;
		PERFORM chorus_conversation_counts_lock(accounts_changed);
		-- Only rows that are still there are taken from (an account going takes its counts with it).
		UPDATE "conversation_counts" d SET "n" = d."n" - x.n
		FROM (
			SELECT o."account_id", o."status", coalesce(o."assigned_to", '') AS user_id, o."unread_count" > 0 AS unread, count(*)::int AS n
			FROM old_rows o GROUP BY 1, 2, 3, 4
		) x
		WHERE d."account_id" = x."account_id" AND d."status" = x."status" AND d."user_id" = x.user_id AND d."unread" = x.unread;
	ELSE
		-- The change as signed rows: -1 for each row as it was, +1 for each row as it is now; rows
		-- whose account, status, assignee and unread state did not change are left out.
		SELECT array_agg(DISTINCT x.account_id) INTO accounts_changed
		FROM old_rows o JOIN new_rows n ON n."id" = o."id"
		CROSS JOIN LATERAL (VALUES (o."account_id"), (n."account_id")) AS x(account_id)
		WHERE (o."account_id", o."status", o."assigned_to", o."unread_count" > 0) IS DISTINCT FROM (n."account_id", n."status", n."assigned_to", n."unread_count" > 0);
		-- Most updates (a new message's preview, a label, a priority) change no count and take no lock.
		IF accounts_changed IS NULL THEN RETURN NULL; END IF;
		PERFORM chorus_conversation_counts_lock(accounts_changed);
		WITH changed AS (
			SELECT x.* FROM old_rows o JOIN new_rows n ON n."id" = o."id"
			CROSS JOIN LATERAL (VALUES (o."account_id", o."status", o."assigned_to", o."unread_count" > 0, -1), (n."account_id", n."status", n."assigned_to", n."unread_count" > 0, 1))
				AS x(account_id, status, assigned_to, unread, sign)
			WHERE (o."account_id", o."status", o."assigned_to", o."unread_count" > 0) IS DISTINCT FROM (n."account_id", n."status", n."assigned_to", n."unread_count" > 0)
		)
		INSERT INTO "conversation_counts" AS d ("account_id", "status", "user_id", "unread", "n")
		SELECT c.account_id, c.status, coalesce(c.assigned_to, ''), c.unread, sum(c.sign)
		FROM changed c JOIN "accounts" a ON a."id" = c.account_id
		GROUP BY 1, 2, 3, 4 HAVING sum(c.sign) <> 0 ORDER BY 1, 2, 3, 4
		ON CONFLICT ("account_id", "status", "user_id", "unread") DO UPDATE SET "n" = d."n" + excluded."n";
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "conversation_counts" ("account_id", "status", "user_id", "unread", "n")
SELECT "account_id", "status", coalesce("assigned_to", ''), "unread_count" > 0, count(*)
FROM "conversations" GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER "conversations_counts_insert" AFTER INSERT ON "conversations"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_conversation_counts();
--> statement-breakpoint
CREATE TRIGGER "conversations_counts_update" AFTER UPDATE ON "conversations"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_conversation_counts();
--> statement-breakpoint
CREATE TRIGGER "conversations_counts_delete" AFTER DELETE ON "conversations"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_conversation_counts();
