CREATE TABLE "csat_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"question" text NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "opened_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "csat_asked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "csat_score" integer;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "csat_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "csat_settings" ADD CONSTRAINT "csat_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "conversations_account_csat_idx" ON "conversations" USING btree ("account_id","csat_at") WHERE "conversations"."csat_score" is not null;
