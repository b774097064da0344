ALTER TABLE "webhook_deliveries" ADD COLUMN "locked_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "claims" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","id") WHERE "webhook_deliveries"."status" = 'pending';