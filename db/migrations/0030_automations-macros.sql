-- Automations: rules of an account run in position order when one of their event is recorded.
CREATE TABLE "automations" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"event" text NOT NULL,
	"conditions" jsonb NOT NULL,
	"actions" jsonb NOT NULL,
	"position" integer NOT NULL,
	"author_id" text REFERENCES "users"("id"),
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "automations_account_position_idx" ON "automations" USING btree ("account_id","position","id");
--> statement-breakpoint
CREATE INDEX "automations_account_event_idx" ON "automations" USING btree ("account_id","event","position") WHERE "automations"."enabled";
--> statement-breakpoint
-- Macros: a named list of actions a person runs on one conversation.
CREATE TABLE "macros" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"visibility" text NOT NULL,
	"owner_id" text NOT NULL REFERENCES "users"("id"),
	"actions" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "macros_account_created_idx" ON "macros" USING btree ("account_id","created_at","id");
