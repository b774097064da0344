-- A send to the network that has started and whose answer is not recorded yet. The row is
-- committed before the network is called and removed with the answer; a later attempt that
-- finds it knows an earlier one died in between (the network may have taken the message), so it
-- does not send again: the message fails as `interrupted`, for a person to resend.
CREATE TABLE "message_send_attempts" (
	"message_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_send_attempts" ADD CONSTRAINT "message_send_attempts_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "message_send_attempts" ADD CONSTRAINT "message_send_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
