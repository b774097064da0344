-- An app grant remembers whether the session that approved it had proved the second factor, and
-- passes it to every access token issued from it (API tokens already carry second_factor_at):
-- while the account requires two-factor sign-in, a credential issued without it grants nothing.
ALTER TABLE "oauth_grants" ADD COLUMN "second_factor_at" timestamp (3) with time zone;
--> statement-breakpoint
-- API tokens and grants created after their user set up the second factor were created by a
-- session that had asked for a code at sign-in.
UPDATE "api_tokens" SET "second_factor_at" = "api_tokens"."created_at"
FROM "user_mfa"
WHERE "api_tokens"."kind" IN ('api', 'oauth') AND "api_tokens"."second_factor_at" IS NULL
  AND "user_mfa"."user_id" = "api_tokens"."user_id"
  AND "user_mfa"."enabled_at" IS NOT NULL AND "user_mfa"."enabled_at" <= "api_tokens"."created_at";
--> statement-breakpoint
UPDATE "oauth_grants" SET "second_factor_at" = "oauth_grants"."created_at"
FROM "user_mfa"
WHERE "user_mfa"."user_id" = "oauth_grants"."user_id"
  AND "user_mfa"."enabled_at" IS NOT NULL AND "user_mfa"."enabled_at" <= "oauth_grants"."created_at";
