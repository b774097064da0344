-- When a session proved the second factor (a code at sign-in, or confirming enrolment in it):
-- while the account requires two-factor sign-in, a session without it grants nothing.
ALTER TABLE "api_tokens" ADD COLUMN "second_factor_at" timestamp (3) with time zone;
--> statement-breakpoint
-- Sessions opened after their user set up the second factor asked for a code at sign-in.
UPDATE "api_tokens" SET "second_factor_at" = "api_tokens"."created_at"
FROM "user_mfa"
WHERE "api_tokens"."kind" = 'session' AND "user_mfa"."user_id" = "api_tokens"."user_id"
  AND "user_mfa"."enabled_at" IS NOT NULL AND "user_mfa"."enabled_at" <= "api_tokens"."created_at";
--> statement-breakpoint
-- The audit log names the credential used: an API token or app, with the person behind it.
ALTER TABLE "audit_log" ADD COLUMN "actor_via" jsonb;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_account_via_user_created_idx" ON "audit_log" ("account_id", ("actor_via"->>'user_id'), "created_at", "id");
