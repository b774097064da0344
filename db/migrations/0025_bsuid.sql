-- Customers who adopted a WhatsApp username may reach the business with no phone number: a contact
-- is known by its phone, its business-scoped user id (BSUID), or both; each is unique per account.
ALTER TABLE "contacts" ALTER COLUMN "phone" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "network_user_id" text;
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "username" text;
--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_identity_check" CHECK ("phone" IS NOT NULL OR "network_user_id" IS NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_account_user_id_idx" ON "contacts" USING btree ("account_id","network_user_id");
--> statement-breakpoint
DROP INDEX IF EXISTS "contacts_search_idx";
--> statement-breakpoint
CREATE INDEX "contacts_search_idx" ON "contacts" USING gin (chorus_search_vector((coalesce("name", '') || ' ' || coalesce("email", '') || ' ' || translate(coalesce("username", ''), '._-', '   '))));
--> statement-breakpoint
DROP INDEX IF EXISTS "contacts_account_name_idx";
--> statement-breakpoint
CREATE INDEX "contacts_account_name_idx" ON "contacts" USING btree ("account_id",(coalesce('0' || chorus_search_text("name"), '1' || coalesce("phone", "username", "network_user_id")) COLLATE "C"),"id");
--> statement-breakpoint
-- Read receipts and the typing indicator sent to the customer (Settings → Inbox), on by default.
ALTER TABLE "inbox_settings" ADD COLUMN "send_read_receipts" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "inbox_settings" ADD COLUMN "send_typing_indicator" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- When the typing indicator last went to the customer of this conversation (at most one per 20 s).
ALTER TABLE "conversations" ADD COLUMN "typing_indicator_sent_at" timestamp (3) with time zone;
