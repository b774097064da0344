-- Contacts are listed by their latest message (newest first) or by name. The latest message of a
-- contact is kept in its own row, written by triggers in the transaction of the change: a row
-- apart from the contact, so that a reply (which locks its conversation, then this row) and a
-- customer's message (which locks the contact, then the conversation, then this row) always take
-- the locks in the same order. sort_at is the latest message, or the contact's creation before any.
CREATE TABLE "contact_activity" (
	"contact_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"last_message_at" timestamp (3) with time zone,
	"sort_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_activity" ADD CONSTRAINT "contact_activity_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "contact_activity_account_sort_idx" ON "contact_activity" USING btree ("account_id","sort_at","contact_id");
--> statement-breakpoint
INSERT INTO "contact_activity" ("contact_id", "account_id", "last_message_at", "sort_at")
SELECT ct."id", ct."account_id", m."at", greatest(ct."created_at", m."at")
FROM "contacts" ct
LEFT JOIN LATERAL (
	SELECT max(c."last_message_at") AS "at" FROM "conversations" c WHERE c."account_id" = ct."account_id" AND c."contact_id" = ct."id"
) m ON true;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_contact_activity_created() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "contact_activity" ("contact_id", "account_id", "last_message_at", "sort_at")
	VALUES (NEW."id", NEW."account_id", NULL, NEW."created_at")
	ON CONFLICT ("contact_id") DO NOTHING;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_activity_created" AFTER INSERT ON "contacts"
FOR EACH ROW EXECUTE FUNCTION chorus_contact_activity_created();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_contact_activity_message() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	latest timestamptz;
BEGIN
	IF TG_OP = 'DELETE' THEN
		-- The contact's latest message may have gone with the conversation.
		SELECT max(c."last_message_at") INTO latest FROM "conversations" c
		WHERE c."account_id" = OLD."account_id" AND c."contact_id" = OLD."contact_id";
		UPDATE "contact_activity" a SET "last_message_at" = latest,
			"sort_at" = coalesce(greatest(latest, (SELECT ct."created_at" FROM "contacts" ct WHERE ct."id" = OLD."contact_id")), a."sort_at")
		WHERE a."contact_id" = OLD."contact_id" AND a."last_message_at" IS DISTINCT FROM latest;
		RETURN NULL;
	END IF;
	IF NEW."last_message_at" IS NOT NULL THEN
		UPDATE "contact_activity" a SET "last_message_at" = NEW."last_message_at", "sort_at" = greatest(a."sort_at", NEW."last_message_at")
		WHERE a."contact_id" = NEW."contact_id" AND (a."last_message_at" IS NULL OR a."last_message_at" < NEW."last_message_at");
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "conversations_contact_activity" AFTER INSERT OR DELETE OR UPDATE OF "last_message_at" ON "conversations"
FOR EACH ROW EXECUTE FUNCTION chorus_contact_activity_message();
--> statement-breakpoint
CREATE INDEX "contacts_account_name_idx" ON "contacts" USING btree ("account_id",(coalesce('0' || chorus_search_text("name"), '1' || "phone") COLLATE "C"),"id");
