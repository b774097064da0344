-- Message search reads a narrow copy of each searchable message: its words, when it was written
-- and the time periods it falls in (hour, day, month and year, UTC). One GIN index over both lets
-- a search find the newest matches of a common word without reading every match: it asks for the
-- matches of the last hour, then of a wider window, until a page is full. Rows are kept by
-- triggers in the transaction that writes the message: a deleted or erased message has none.
CREATE OR REPLACE FUNCTION chorus_search_periods(at timestamptz) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT array_to_tsvector(ARRAY[
	to_char(at AT TIME ZONE 'UTC', '"h"YYYYMMDDHH24'),
	to_char(at AT TIME ZONE 'UTC', '"d"YYYYMMDD'),
	to_char(at AT TIME ZONE 'UTC', '"m"YYYYMM'),
	to_char(at AT TIME ZONE 'UTC', '"y"YYYY')
]) $$;
--> statement-breakpoint
CREATE TABLE "message_search" (
	"message_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"words" tsvector NOT NULL,
	"periods" tsvector NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_search" ADD CONSTRAINT "message_search_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- New messages: one grouped insert per statement (a bulk load is one pass).
CREATE OR REPLACE FUNCTION chorus_message_search_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "message_search" ("message_id", "account_id", "conversation_id", "created_at", "words", "periods")
	SELECT n."id", n."account_id", n."conversation_id", n."created_at", chorus_search_vector(n."text"), chorus_search_periods(n."created_at")
	FROM new_rows n
	WHERE n."text" IS NOT NULL AND n."deleted_at" IS NULL;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- An edit, a deletion (the text erased) or a move: the message's row is written afresh, or goes.
CREATE OR REPLACE FUNCTION chorus_message_search_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "message_search" WHERE "message_id" = OLD."id";
	IF NEW."text" IS NOT NULL AND NEW."deleted_at" IS NULL THEN
		INSERT INTO "message_search" ("message_id", "account_id", "conversation_id", "created_at", "words", "periods")
		VALUES (NEW."id", NEW."account_id", NEW."conversation_id", NEW."created_at", chorus_search_vector(NEW."text"), chorus_search_periods(NEW."created_at"));
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "messages_search_insert" AFTER INSERT ON "messages"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chorus_message_search_insert();
--> statement-breakpoint
-- Only a change to what search reads fires it (a status update does not).
CREATE TRIGGER "messages_search_update" AFTER UPDATE OF "text", "deleted_at", "created_at", "conversation_id", "account_id" ON "messages"
FOR EACH ROW WHEN (
	OLD."text" IS DISTINCT FROM NEW."text" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at"
	OR OLD."created_at" IS DISTINCT FROM NEW."created_at" OR OLD."conversation_id" IS DISTINCT FROM NEW."conversation_id"
	OR OLD."account_id" IS DISTINCT FROM NEW."account_id"
) EXECUTE FUNCTION chorus_message_search_update();
--> statement-breakpoint
-- The messages already written, then the index (built once, faster than row by row).
INSERT INTO "message_search" ("message_id", "account_id", "conversation_id", "created_at", "words", "periods")
SELECT "id", "account_id", "conversation_id", "created_at", chorus_search_vector("text"), chorus_search_periods("created_at")
FROM "messages"
WHERE "text" IS NOT NULL AND "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "message_search_words_periods_idx" ON "message_search" USING gin ("words", "periods");
