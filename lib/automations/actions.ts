import type { Executor } from "@/db";
import type { conversations } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { ActivityActor } from "@/lib/activity/schemas";
import type { EventReaction } from "@/lib/auth/context";
import type { Scope } from "@/lib/auth/scopes";
import { presentUserRef } from "@/lib/auth/user-identity";
import { fillCannedReply } from "@/lib/canned-replies/schemas";
import { findCannedReply } from "@/lib/canned-replies/store";
import { contactAddress } from "@/lib/contacts/identity";
import { presentAssignment, presentConversation, conversationSummary, type ConversationWithContact } from "@/lib/conversations/schemas";
import { findConversation, updateConversationRow } from "@/lib/conversations/store";
import { scheduleSurveyOnClose } from "@/lib/csat/schedule";
import { recordEvent } from "@/lib/events/record-event";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { MAX_LABELS_PER_CONVERSATION } from "@/lib/labels/schemas";
import { findLabel } from "@/lib/labels/store";
import { queueOutboundMessage } from "@/lib/messages/send-message";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import { presentNote } from "@/lib/notes/schemas";
import { insertNote } from "@/lib/notes/store";
import { invalidField } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { recordResolution } from "@/lib/reports/record";
import { applySla } from "@/lib/sla/sla";
import { findSlaPolicyId } from "@/lib/sla/store";
import { assignByPolicy } from "@/lib/teams/assignment";
import { assignTeam, setPriority } from "@/lib/teams/routing";
import { findTeamId } from "@/lib/teams/store";
import { prepareTemplateSend } from "@/lib/templates/templates";
import { findTemplateByName } from "@/lib/templates/store";
import { findLiveUser, findUserName } from "@/lib/users/store";
import type { ActionType, AutomationActionInput } from "./schemas";

/** Who runs the actions: a rule (its notes are written in its author's name) or a person running a macro. */
export type RunActor =
  | { type: "automation"; automation: { id: string; name: string }; authorId: string | null }
  | { type: "user"; user: { id: string; name: string; email: string; role: "admin" | "agent" } };

export type ActionContext = {
  /** The rule's transaction (the event's), and the reaction to the events its actions record. */
  db: Executor;
  react: EventReaction;
  accountId: string;
  conversationId: string;
  actor: RunActor;
  now: Date;
  /** The event a rule reacted to (absent for a macro). */
  event?: { id: string; type: string };
};

export type ActionResult = { type: ActionType; result: "done" | "skipped"; reason?: string };

type ActionOf<K extends ActionType> = Extract<AutomationActionInput, { type: K }>;

type ActionDefinition<K extends ActionType> = {
  /**
   * The scope a person needs, beyond conversations:write, to run the action in a macro: the
   * one the same step by hand needs (sending a message needs messages:write). Rules run as the
   * business and need none.
   */
  scope?: Scope;
  /** Checks what the action names against the account when it is saved: a 400 naming `path` otherwise. */
  check?: (tx: Executor, input: { accountId: string; action: ActionOf<K>; path: string }) => Promise<void>;
  /** Does it, in the caller's transaction. Returns why it did nothing when there was nothing to do. */
  run: (ctx: ActionContext, action: ActionOf<K>) => Promise<string | void>;
};

const skip = (reason: string) => reason;

const activityActor = (actor: RunActor): ActivityActor => (actor.type === "automation" ? { type: "automation" } : { type: "user", id: actor.user.id, name: actor.user.name });
/** What the activity trail keeps of who did it: the rule's name, for a rule. */
const source = (actor: RunActor) => (actor.type === "automation" ? { automation: actor.automation } : {});
const via = (actor: RunActor) => (actor.type === "automation" ? { automation: actor.automation } : undefined);
const eventUser = (actor: RunActor) => (actor.type === "user" ? { user: presentUserRef(actor.user) } : {});

async function conversationOf(ctx: ActionContext): Promise<ConversationWithContact> {
  return findConversation(ctx.db, { accountId: ctx.accountId, id: ctx.conversationId, lock: true });
}

async function update(ctx: ActionContext, current: ConversationWithContact, values: Partial<typeof conversations.$inferInsert>): Promise<ConversationWithContact> {
  const row = await updateConversationRow(ctx.db, { id: current.id, set: { ...values, updatedAt: ctx.now } });
  return { ...row, contact: current.contact };
}

async function send(ctx: ActionContext, current: ConversationWithContact, message: { type: "text" | "template"; text: string; content?: Parameters<typeof queueOutboundMessage>[1]["content"]; media?: unknown }) {
  const integration = await loadNumberIntegration(ctx.db, ctx.accountId);
  await queueOutboundMessage(ctx, {
    conversationId: current.id,
    from: businessNumberOf(integration),
    to: contactAddress(current.contact as { phone: string | null; networkUserId: string | null }),
    type: message.type,
    text: message.text,
    ...(message.content ? { content: message.content } : {}),
    ...(message.media ? { media: message.media as never } : {}),
    sender: ctx.actor.type === "user" ? { type: "user", userId: ctx.actor.user.id } : { type: "automation" },
  });
}

/**
 * Every action a rule or a macro can take. A new action is one entry here and one schema in
 * schemas.ts; the engine and the macros need no change.
 */
const actionRegistry: { [K in ActionType]: ActionDefinition<K> } = {
  assign_user: {
    check: async (tx, { accountId, action, path }) => {
      if (!(await findLiveUser(tx, { accountId, id: action.user_id }))) throw invalidField(`${path}.user_id`, "is not a user of this account");
    },
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      if (current.status === "closed") return skip("the conversation is closed");
      const assignee = await findLiveUser(ctx.db, { accountId: ctx.accountId, id: action.user_id });
      if (!assignee) return skip("the user no longer exists");
      if (current.assignedTo === assignee.id && current.status !== "open") return skip("already assigned to them");
      const updated = await update(ctx, current, { status: current.status === "snoozed" ? "snoozed" : "assigned", assignedTo: assignee.id, assignedAt: ctx.now });
      await recordEvent(ctx, { accountId: ctx.accountId, type: "conversation.assigned", data: { conversation: presentAssignment(updated), user: presentUserRef(assignee) } });
      await recordActivity(ctx.db, {
        accountId: ctx.accountId,
        conversationId: current.id,
        type: "assigned",
        actor: activityActor(ctx.actor),
        data: { assignee: { id: assignee.id, name: assignee.name }, ...source(ctx.actor) },
        at: ctx.now,
      });
    },
  },
  add_label: {
    check: async (tx, { accountId, action, path }) => {
      if (!(await findLabel(tx, { accountId, id: action.label_id }))) throw invalidField(`${path}.label_id`, "is not a label of this account");
    },
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      const label = await findLabel(ctx.db, { accountId: ctx.accountId, id: action.label_id });
      if (!label) return skip("the label no longer exists");
      if (current.labels.some((l) => l.id === label.id)) return skip("the conversation already has the label");
      if (current.labels.length >= MAX_LABELS_PER_CONVERSATION) return skip(`the conversation already has ${MAX_LABELS_PER_CONVERSATION} labels`);
      const ref = { id: label.id, name: label.name, color: label.color };
      await update(ctx, current, { labels: [...current.labels, ref] });
      await recordActivity(ctx.db, { accountId: ctx.accountId, conversationId: current.id, type: "labeled", actor: activityActor(ctx.actor), data: { label: ref, ...source(ctx.actor) }, at: ctx.now });
    },
  },
  remove_label: {
    check: async (tx, { accountId, action, path }) => {
      if (!(await findLabel(tx, { accountId, id: action.label_id }))) throw invalidField(`${path}.label_id`, "is not a label of this account");
    },
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      const ref = current.labels.find((l) => l.id === action.label_id);
      if (!ref) return skip("the conversation does not have the label");
      await update(ctx, current, { labels: current.labels.filter((l) => l.id !== action.label_id) });
      await recordActivity(ctx.db, { accountId: ctx.accountId, conversationId: current.id, type: "unlabeled", actor: activityActor(ctx.actor), data: { label: ref, ...source(ctx.actor) }, at: ctx.now });
    },
  },
  assign_team: {
    check: async (tx, { accountId, action, path }) => {
      if (!(await findTeamId(tx, { accountId, id: action.team_id }))) throw invalidField(`${path}.team_id`, "is not a team of this account");
    },
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      if (!(await findTeamId(ctx.db, { accountId: ctx.accountId, id: action.team_id }))) return skip("the team no longer exists");
      if (current.teamId === action.team_id) return skip("the conversation is already with the team");
      // An unassigned open conversation is then offered to the team's assignment policy.
      await assignTeam(ctx.db, { ctx: { accountId: ctx.accountId, db: ctx.db, react: ctx.react }, conversationId: current.id, teamId: action.team_id, actor: activityActor(ctx.actor), via: via(ctx.actor) });
    },
  },
  assign_by_policy: {
    run: async (ctx) => {
      const current = await conversationOf(ctx);
      if (current.status !== "open") return skip(`the conversation is ${current.status}`);
      if (current.assignedTo) return skip("the conversation is already assigned");
      const assigned = await assignByPolicy(ctx.db, { ctx: { accountId: ctx.accountId, db: ctx.db, react: ctx.react }, conversationId: current.id, now: ctx.now });
      if (!assigned) return skip("nobody can take it under the assignment policy now; it waits in the queue");
    },
  },
  set_priority: {
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      if ((current.priority ?? null) === action.priority) return skip("the conversation already has that priority");
      await setPriority(ctx.db, { ctx: { accountId: ctx.accountId, db: ctx.db, react: ctx.react }, conversationId: current.id, priority: action.priority, actor: activityActor(ctx.actor), via: via(ctx.actor) });
    },
  },
  apply_sla: {
    check: async (tx, { accountId, action, path }) => {
      if (!(await findSlaPolicyId(tx, { accountId, id: action.sla_policy_id }))) throw invalidField(`${path}.sla_policy_id`, "is not an SLA policy of this account");
    },
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      if (current.status === "closed") return skip("the conversation is closed");
      if (!(await findSlaPolicyId(ctx.db, { accountId: ctx.accountId, id: action.sla_policy_id }))) return skip("the SLA policy no longer exists");
      if (current.slaPolicyId === action.sla_policy_id) return skip("the conversation already has the SLA policy");
      await applySla(ctx.db, { ctx: { accountId: ctx.accountId, db: ctx.db, react: ctx.react }, conversationId: current.id, slaPolicyId: action.sla_policy_id, actor: activityActor(ctx.actor), via: via(ctx.actor) });
    },
  },
  send_canned_reply: {
    scope: "messages:write",
    check: async (tx, { accountId, action, path }) => {
      if (!(await findCannedReply(tx, { accountId, id: action.canned_reply_id }))) throw invalidField(`${path}.canned_reply_id`, "is not a canned reply of this account");
    },
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      if (current.contact.blocked) return skip("the contact is blocked");
      const reply = await findCannedReply(ctx.db, { accountId: ctx.accountId, id: action.canned_reply_id });
      if (!reply) return skip("the canned reply no longer exists");
      const profile = await loadBusinessProfile(ctx.db, ctx.accountId);
      const text = fillCannedReply(reply.text, {
        "contact.name": current.contact.name ?? "",
        // A rule speaks for the business; a macro for the person running it.
        "agent.name": ctx.actor.type === "user" ? ctx.actor.user.name : profile.name,
        "business.name": profile.name,
      });
      await send(ctx, current, { type: "text", text });
    },
  },
  send_template: {
    scope: "messages:write",
    check: async (tx, { accountId, action, path }) => {
      const row = await findTemplateByName(tx, { accountId, name: action.name, language: action.language });
      if (!row) throw invalidField(`${path}.name`, `is not a template of this account in ${action.language}`);
    },
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      if (current.contact.blocked) return skip("the contact is blocked");
      const prepared = await prepareTemplateSend(ctx.db, { accountId: ctx.accountId, template: { name: action.name, language: action.language, variables: action.variables } });
      await send(ctx, current, { type: "template", text: prepared.text, content: { template: prepared.content }, media: prepared.media });
    },
  },
  add_note: {
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      const authorId = ctx.actor.type === "user" ? ctx.actor.user.id : ctx.actor.authorId;
      if (!authorId) return skip("the rule has no author to write the note");
      const author = await findUserName(ctx.db, { accountId: ctx.accountId, id: authorId });
      if (!author) return skip("the rule's author no longer exists");
      const row = await insertNote(ctx.db, { id: newId("note", ctx.now), accountId: ctx.accountId, conversationId: current.id, authorId: author.id, text: action.text, mentions: [], createdAt: ctx.now });
      await recordEvent(ctx, { accountId: ctx.accountId, type: "note.created", data: { note: presentNote(row, author), conversation: conversationSummary(current) } });
    },
  },
  snooze: {
    run: async (ctx, action) => {
      const current = await conversationOf(ctx);
      if (current.status === "closed") return skip("the conversation is closed");
      const until = new Date(ctx.now.getTime() + action.duration_s * 1000);
      const updated = await update(ctx, current, { status: "snoozed", snoozedUntil: until });
      await recordEvent(ctx, { accountId: ctx.accountId, type: "conversation.snoozed", data: { conversation: presentConversation(updated), ...eventUser(ctx.actor) } });
      await enqueueJob(ctx.db, { kind: "conversation.wake", accountId: ctx.accountId, payload: { accountId: ctx.accountId, conversationId: current.id }, runAt: until });
      await recordActivity(ctx.db, { accountId: ctx.accountId, conversationId: current.id, type: "snoozed", actor: activityActor(ctx.actor), data: { until: until.toISOString(), ...source(ctx.actor) }, at: ctx.now });
    },
  },
  close: {
    run: async (ctx) => {
      const current = await conversationOf(ctx);
      if (current.status === "closed") return skip("the conversation is already closed");
      const updated = await update(ctx, current, { status: "closed", closedAt: ctx.now, snoozedUntil: null, unreadCount: 0 });
      await scheduleSurveyOnClose(ctx.db, { accountId: ctx.accountId, conversation: updated });
      await recordResolution(ctx.db, { accountId: ctx.accountId, conversation: updated, actorId: ctx.actor.type === "user" ? ctx.actor.user.id : null });
      await recordEvent(ctx, { accountId: ctx.accountId, type: "conversation.closed", data: { conversation: presentConversation(updated), ...eventUser(ctx.actor) } });
      await recordActivity(ctx.db, { accountId: ctx.accountId, conversationId: current.id, type: "closed", actor: activityActor(ctx.actor), data: source(ctx.actor), at: ctx.now });
    },
  },
  emit_webhook: {
    run: async (ctx) => {
      if (ctx.actor.type !== "automation") return skip("only a rule emits automation.triggered");
      const current = await conversationOf(ctx);
      await recordEvent(ctx, {
        accountId: ctx.accountId,
        type: "automation.triggered",
        data: { automation: ctx.actor.automation, trigger: ctx.event ?? null, conversation: presentConversation(current) },
      });
    },
  },
};

/**
 * Checks every action's references against the account (unknown users, teams, labels, SLA
 * policies, canned replies, templates → 400 naming `actions.<i>.<field>`), before anything is written.
 */
export async function checkActions(tx: Executor, { accountId, actions, path = "actions" }: { accountId: string; actions: AutomationActionInput[]; path?: string }) {
  for (const [index, action] of actions.entries()) {
    const definition = actionRegistry[action.type] as ActionDefinition<ActionType>;
    await definition.check?.(tx, { accountId, action, path: `${path}.${index}` });
  }
}

/** The scopes a person needs to run these actions (beyond conversations:write), each once. */
export function scopesToRun(actions: AutomationActionInput[]): Scope[] {
  return [...new Set(actions.flatMap((action) => actionRegistry[action.type].scope ?? []))];
}

/** Runs one action; what it did, or why it did nothing. */
export async function runAction(ctx: ActionContext, action: AutomationActionInput): Promise<ActionResult> {
  const definition = actionRegistry[action.type] as ActionDefinition<ActionType>;
  const skipped = await definition.run(ctx, action);
  return skipped ? { type: action.type, result: "skipped", reason: skipped } : { type: action.type, result: "done" };
}
