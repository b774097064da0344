-- An agent's "not helpful" on a suggested passage, per conversation. Keyed by a hash of the
-- passage text so the choice survives the passages being indexed again.
CREATE TABLE "suggestion_dismissals" (
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
	"conversation_id" text NOT NULL REFERENCES "conversations"("id") ON DELETE CASCADE,
	"text_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL DEFAULT now(),
	PRIMARY KEY ("conversation_id", "text_hash")
);
--> statement-breakpoint
-- The answer assistant's settings: answering outside opening hours, and the retrieval score a
-- question must reach to be answered.
CREATE TABLE "assistant_settings" (
	"account_id" text PRIMARY KEY NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
	"answer_outside_hours" boolean NOT NULL DEFAULT false,
	"min_score" real NOT NULL DEFAULT 0.1,
	"updated_at" timestamp (3) with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- Passages stored until now were cut about a paragraph long (up to 700 characters, neighbours
-- joined whatever their language); they are cut again, shorter and one language each, on first use.
ALTER TABLE "knowledge_passages" ADD COLUMN "cut" integer DEFAULT 1 NOT NULL;
