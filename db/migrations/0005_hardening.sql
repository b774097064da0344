ALTER TABLE "api_tokens" ADD COLUMN "replaced_by" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "user_id" text;