-- What the network charges: the pricing a status reported for each outbound message, and each
-- account's price table (absent = the documented default table).
ALTER TABLE "messages" ADD COLUMN "pricing" jsonb;
--> statement-breakpoint
CREATE TABLE "pricing_tables" (
	"account_id" text PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"rates" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pricing_tables" ADD CONSTRAINT "pricing_tables_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
