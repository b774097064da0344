-- A customer's edits and deletions: when the message was last edited, and its earlier versions
-- (kept for admins) as a JSON array of {text?, caption?, until, network_message_id?}.
ALTER TABLE "messages" ADD COLUMN "edited_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "history" jsonb;
--> statement-breakpoint
-- The number's health as the network last reported it.
ALTER TABLE "number_integrations" ADD COLUMN "quality_rating" text;
--> statement-breakpoint
ALTER TABLE "number_integrations" ADD COLUMN "messaging_limit_tier" text;
--> statement-breakpoint
ALTER TABLE "number_integrations" ADD COLUMN "health_updated_at" timestamp (3) with time zone;
--> statement-breakpoint
-- Notifications not about a conversation: a drop of the number's health, told to admins.
ALTER TABLE "notifications" ALTER COLUMN "conversation_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "message" text;
