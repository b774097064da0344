import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt, ownedBy, ts, updatedAt } from "./columns";

// Team workflow: automations (rules run when an event is recorded) and macros (actions a person
// runs on one conversation in one click). Conditions and actions are stored as validated JSON.

export type AutomationCondition = { field: string; operator: string; value?: string };
export type AutomationAction = { type: string } & Record<string, unknown>;

export const automations = pgTable(
  "automations",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    event: text("event").notNull(),
    conditions: jsonb("conditions").$type<AutomationCondition[]>().notNull(),
    actions: jsonb("actions").$type<AutomationAction[]>().notNull(),
    // 0-based order of the account's rules; the rules of an event run in this order.
    position: integer("position").notNull(),
    // The person who last saved the rule: its notes are written in their name.
    authorId: text("author_id").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("automations_account_position_idx").on(t.accountId, t.position, t.id),
    index("automations_account_event_idx").on(t.accountId, t.event, t.position).where(sql`${t.enabled}`),
  ],
);

export const macros = pgTable(
  "macros",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    name: text("name").notNull(),
    visibility: text("visibility", { enum: ["personal", "account"] }).notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id),
    actions: jsonb("actions").$type<AutomationAction[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("macros_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);

export type Automation = typeof automations.$inferSelect;
export type Macro = typeof macros.$inferSelect;

// Team workflow: teams, assignment policies, SLA policies and their recorded outcomes.

export const teams = pgTable(
  "teams",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    name: text("name").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("teams_account_name_idx").on(t.accountId, sql`lower(${t.name})`), index("teams_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);
export type Team = typeof teams.$inferSelect;

export const teamMembers = pgTable(
  "team_members",
  {
    teamId: ownedBy("team_id", () => teams.id),
    userId: ownedBy("user_id", () => users.id),
    accountId: text("account_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user_idx").on(t.userId)],
);

export type AssignmentMode = "manual" | "round_robin" | "balanced";
export const assignmentPolicies = pgTable(
  "assignment_policies",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    // Null: the account's policy; else the team's own.
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: ["manual", "round_robin", "balanced"] }).notNull(),
    capacity: integer("capacity"),
    agentCapacities: jsonb("agent_capacities").$type<Record<string, number>>().notNull().default({}),
    // Round robin: the last person it handed a conversation to (the next one follows them).
    lastAssignedUserId: text("last_assigned_user_id"),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("assignment_policies_scope_idx").on(t.accountId, sql`coalesce(${t.teamId}, '')`)],
);
export type AssignmentPolicy = typeof assignmentPolicies.$inferSelect;

export const slaPolicies = pgTable(
  "sla_policies",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    name: text("name").notNull(),
    firstResponseS: integer("first_response_s"),
    nextResponseS: integer("next_response_s"),
    resolutionS: integer("resolution_s"),
    businessHoursOnly: boolean("business_hours_only").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("sla_policies_account_name_idx").on(t.accountId, sql`lower(${t.name})`), index("sla_policies_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);
export type SlaPolicy = typeof slaPolicies.$inferSelect;

export const workflowSettings = pgTable("workflow_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  awayAfterS: integer("away_after_s").notNull().default(600),
  defaultSlaPolicyId: text("default_sla_policy_id").references(() => slaPolicies.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

// What happened to each SLA target (met or breached), when it happened: attainment counts these.
export const slaOutcomes = pgTable(
  "sla_outcomes",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    conversationId: text("conversation_id").notNull(),
    slaPolicyId: text("sla_policy_id").notNull(),
    kind: text("kind", { enum: ["first_response", "next_response", "resolution"] }).notNull(),
    outcome: text("outcome", { enum: ["met", "breached"] }).notNull(),
    userId: text("user_id"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("sla_outcomes_account_created_idx").on(t.accountId, t.createdAt)],
);
