-- Campaigns: consent and labels on contacts, each account's campaign settings, campaigns, and one
-- row per recipient (its own job: a crash or restart never messages anyone twice).
ALTER TABLE "contacts" ADD COLUMN "marketing_opt_in" boolean;
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "labels" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
CREATE INDEX "contacts_labels_idx" ON "contacts" USING gin ("labels" jsonb_path_ops);
--> statement-breakpoint
CREATE TABLE "campaign_settings" (
	"account_id" text PRIMARY KEY NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"messages_per_second" integer DEFAULT 80 NOT NULL,
	"require_opt_in" boolean DEFAULT true NOT NULL,
	"opt_out_keywords" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"template" jsonb NOT NULL,
	"audience" jsonb NOT NULL,
	"status" text NOT NULL,
	"send_at" timestamp (3) with time zone,
	"estimated_cost" jsonb,
	"created_by" text,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "campaigns_account_created_idx" ON "campaigns" USING btree ("account_id","created_at","id");
--> statement-breakpoint
CREATE TABLE "campaign_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"campaign_id" text NOT NULL REFERENCES "campaigns"("id") ON DELETE cascade,
	"contact_id" text NOT NULL REFERENCES "contacts"("id") ON DELETE cascade,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"message_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_key_idx" ON "campaign_recipients" USING btree ("idempotency_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_campaign_contact_idx" ON "campaign_recipients" USING btree ("campaign_id","contact_id");
--> statement-breakpoint
CREATE INDEX "campaign_recipients_campaign_status_idx" ON "campaign_recipients" USING btree ("campaign_id","status","id");
--> statement-breakpoint
CREATE INDEX "campaign_recipients_message_idx" ON "campaign_recipients" USING btree ("message_id") WHERE "message_id" is not null;
