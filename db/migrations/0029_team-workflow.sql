-- Team workflow: availability, teams, assignment policies, priority and SLA policies.
-- What a person said they are (online, busy, offline) and when they last did anything: `online`
-- reads as `away` once the account's away delay has passed without activity.
ALTER TABLE "users" ADD COLUMN "availability" text DEFAULT 'online' NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_active_at" timestamp (3) with time zone;
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "teams_account_name_idx" ON "teams" USING btree ("account_id", lower("name"));
--> statement-breakpoint
CREATE INDEX "teams_account_created_idx" ON "teams" USING btree ("account_id", "created_at", "id");
--> statement-breakpoint
CREATE TABLE "team_members" (
	"team_id" text NOT NULL REFERENCES "teams"("id") ON DELETE cascade,
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"account_id" text NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "team_members_user_idx" ON "team_members" USING btree ("user_id");
--> statement-breakpoint
-- One row for the account (team_id null) and one per team that has its own policy.
CREATE TABLE "assignment_policies" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"team_id" text REFERENCES "teams"("id") ON DELETE cascade,
	"mode" text NOT NULL,
	"capacity" integer,
	"agent_capacities" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_assigned_user_id" text,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "assignment_policies_scope_idx" ON "assignment_policies" USING btree ("account_id", coalesce("team_id", ''));
--> statement-breakpoint
CREATE TABLE "sla_policies" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"name" text NOT NULL,
	"first_response_s" integer,
	"next_response_s" integer,
	"resolution_s" integer,
	"business_hours_only" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sla_policies_account_name_idx" ON "sla_policies" USING btree ("account_id", lower("name"));
--> statement-breakpoint
CREATE INDEX "sla_policies_account_created_idx" ON "sla_policies" USING btree ("account_id", "created_at", "id");
--> statement-breakpoint
-- The account's team-workflow settings (absent = the defaults).
CREATE TABLE "workflow_settings" (
	"account_id" text PRIMARY KEY NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"away_after_s" integer DEFAULT 600 NOT NULL,
	"default_sla_policy_id" text REFERENCES "sla_policies"("id") ON DELETE set null,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "team_id" text REFERENCES "teams"("id") ON DELETE set null;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "priority" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_policy_id" text REFERENCES "sla_policies"("id") ON DELETE set null;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_kind" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_started_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_due_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_warn_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "sla_status" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "awaiting_reply_since" timestamp (3) with time zone;
--> statement-breakpoint
CREATE INDEX "conversations_account_team_created_idx" ON "conversations" USING btree ("account_id", "team_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "conversations_account_priority_created_idx" ON "conversations" USING btree ("account_id", "priority", "created_at", "id");
--> statement-breakpoint
-- ?sort=priority: urgent first, then by latest activity.
CREATE INDEX "conversations_account_priority_rank_idx" ON "conversations" USING btree ("account_id", (CASE "priority" WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END), coalesce("last_message_at", "created_at"), "id");
--> statement-breakpoint
-- The due-time check: running clocks by their next moment (warning or due).
CREATE INDEX "conversations_sla_due_idx" ON "conversations" USING btree ("sla_due_at") WHERE "sla_status" IN ('ok', 'warning');
--> statement-breakpoint
CREATE INDEX "conversations_sla_warn_idx" ON "conversations" USING btree ("sla_warn_at") WHERE "sla_status" = 'ok';
--> statement-breakpoint
-- The queue: unassigned open conversations, oldest first.
CREATE INDEX "conversations_account_waiting_idx" ON "conversations" USING btree ("account_id", "created_at", "id") WHERE "status" = 'open' AND "assigned_to" IS NULL;
--> statement-breakpoint
-- SLA outcomes as they happened (met or breached), for attainment reports by policy and agent.
CREATE TABLE "sla_outcomes" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL REFERENCES "accounts"("id") ON DELETE cascade,
	"conversation_id" text NOT NULL,
	"sla_policy_id" text NOT NULL,
	"kind" text NOT NULL,
	"outcome" text NOT NULL,
	"user_id" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sla_outcomes_account_created_idx" ON "sla_outcomes" USING btree ("account_id", "created_at");
