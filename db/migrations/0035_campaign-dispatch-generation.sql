-- Which run of the campaign's pacer (the campaign.dispatch job) may send: scheduling and
-- resuming start a new one and raise this; a job of an earlier one stops without sending.
ALTER TABLE "campaigns" ADD COLUMN "dispatch_generation" integer DEFAULT 0 NOT NULL;
