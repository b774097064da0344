-- Deliveries and attempts keep one foreign key each (to their webhook, to their delivery), so that
-- they still go with their webhook and account. The keys on the copied account and webhook ids
-- checked and locked the account's (and webhook's) row on every delivery and attempt written.
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_webhook_id_webhooks_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_account_id_accounts_id_fk";
