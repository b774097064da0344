-- A push endpoint is unique per user, not across all accounts: registering an endpoint never
-- moves or overwrites a row of another account (or another user).
DROP INDEX IF EXISTS "push_subscriptions_endpoint_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_user_endpoint_idx" ON "push_subscriptions" USING btree ("account_id","user_id","endpoint");
