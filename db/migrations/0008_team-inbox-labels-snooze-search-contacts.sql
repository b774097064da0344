CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_search_text(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chorus_search_vector(value text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT to_tsvector('simple'::regconfig, public.chorus_search_text(value)) $$;
--> statement-breakpoint
CREATE TABLE "labels" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "notes" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "attributes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "blocked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "name_edited_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "snoozed_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "labels" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "labels_account_name_idx" ON "labels" USING btree ("account_id",lower("name"));--> statement-breakpoint
CREATE INDEX "labels_account_created_idx" ON "labels" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contacts_account_created_idx" ON "contacts" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contacts_search_idx" ON "contacts" USING gin (chorus_search_vector((coalesce("name", '') || ' ' || coalesce("email", ''))));--> statement-breakpoint
CREATE INDEX "contacts_phone_search_idx" ON "contacts" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "conversations_labels_idx" ON "conversations" USING gin ("labels" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "messages_text_search_idx" ON "messages" USING gin (chorus_search_vector("text"));
