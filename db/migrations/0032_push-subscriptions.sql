-- Web Push: one row per browser (device) a user allowed to be notified, keyed by its push
-- service endpoint; deleted when the push service answers 404 or 410.
CREATE TABLE "push_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"user_agent" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"last_pushed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_idx" ON "push_subscriptions" USING btree ("endpoint");
--> statement-breakpoint
CREATE INDEX "push_subscriptions_account_user_idx" ON "push_subscriptions" USING btree ("account_id","user_id");
--> statement-breakpoint
-- What a user wants pushed, and when not (quiet hours in their own time zone). No row: the defaults.
CREATE TABLE "notification_preferences" (
	"user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"new_messages" boolean DEFAULT true NOT NULL,
	"mentions" boolean DEFAULT true NOT NULL,
	"assignments" boolean DEFAULT true NOT NULL,
	"sla_warnings" boolean DEFAULT true NOT NULL,
	"quiet_start" text,
	"quiet_end" text,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
