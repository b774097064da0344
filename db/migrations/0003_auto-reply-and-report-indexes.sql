ALTER TABLE "conversations" ADD COLUMN "auto_reply_handled_message_id" text;--> statement-breakpoint
CREATE INDEX "conversations_account_closed_idx" ON "conversations" USING btree ("account_id","closed_at");--> statement-breakpoint
CREATE INDEX "messages_conversation_direction_created_idx" ON "messages" USING btree ("conversation_id","direction","created_at","id");