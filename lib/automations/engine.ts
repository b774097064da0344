import { AsyncLocalStorage } from "node:async_hooks";
import type { Executor } from "@/db";
import { recordActivity } from "@/lib/activity/record-activity";
import { recordAudit } from "@/lib/audit/record-audit";
import type { VerbContext } from "@/lib/auth/context";
import type { EventEnvelope } from "@/lib/events/types";
import { ApiError } from "@/lib/platform/errors";
import { type ActionResult, runAction, type RunActor } from "./actions";
import { allConditionsHold } from "./conditions";
import { factsOf, type LoadedFacts, loadConversationFacts, readerOf } from "./facts";
import { type AutomationActionInput, type AutomationConditionInput, automationEvents, type AutomationEvent } from "./schemas";
import { findEnabledAutomations, findRuleVersionAndFacts } from "./store";

// Set while a rule's actions run: the events they record never trigger rules again, so no rule
// can loop (a rule that assigns on `conversation.assigned` runs once, not forever).
const runningActions = new AsyncLocalStorage<true>();

const isAutomationEvent = (type: string): type is AutomationEvent => (automationEvents as readonly string[]).includes(type);

/** The conversation and message an event is about, from its data. */
function subjectOf(envelope: EventEnvelope): { conversationId?: string; messageId?: string } {
  const data = envelope.data as { conversation?: { id?: unknown }; message?: { id?: unknown; conversation_id?: unknown } };
  const conversationId = typeof data.conversation?.id === "string" ? data.conversation.id : typeof data.message?.conversation_id === "string" ? data.message.conversation_id : undefined;
  const messageId = typeof data.message?.id === "string" ? data.message.id : undefined;
  return { conversationId, messageId };
}

/** A rule as the engine runs it: read and ordered once, kept until the account's rules change. */
type CompiledRule = { id: string; name: string; authorId: string | null; conditions: AutomationConditionInput[]; actions: AutomationActionInput[] };
type AccountRules = { version: string; byEvent: Map<string, CompiledRule[]> };

// The enabled rules of each account by event, in running order. Valid while the account's rule
// version (below) is the one they were read at: any create, change, reorder or delete changes it,
// in this process or another, and the next event reads them again.
const ruleCache = new Map<string, AccountRules>();
const MAX_CACHED_ACCOUNTS = 1000;

/** Every rule of the account, enabled ones by event in running order, with the version they were read at (one statement, one snapshot). */
async function loadAccountRules(tx: Executor, accountId: string, version: string): Promise<AccountRules> {
  const rows = await findEnabledAutomations(tx, { accountId });
  const byEvent = new Map<string, CompiledRule[]>();
  for (const { rule } of rows) {
    const list = byEvent.get(rule.event) ?? [];
    list.push({ id: rule.id, name: rule.name, authorId: rule.authorId, conditions: rule.conditions as AutomationConditionInput[], actions: rule.actions as AutomationActionInput[] });
    byEvent.set(rule.event, list);
  }
  // No enabled rule: the version read beside the (possibly disabled) rules is not in the rows.
  const loaded = { version: rows[0]?.version ?? version, byEvent };
  if (ruleCache.size >= MAX_CACHED_ACCOUNTS) ruleCache.clear();
  ruleCache.set(accountId, loaded);
  return loaded;
}

/**
 * The account's enabled rules for the event in running order and the facts of the conversation,
 * in one round trip inside the event's transaction: the rule version, and the facts only when
 * an enabled rule listens to the event (none: nothing else is read or done). The rules
 * themselves are read again only when the version moved.
 */
async function enabledRules(
  tx: Executor,
  { accountId, event, conversationId, messageId }: { accountId: string; event: AutomationEvent; conversationId: string; messageId?: string },
): Promise<{ rules: CompiledRule[]; facts: LoadedFacts | null }> {
  const row = await findRuleVersionAndFacts(tx, { accountId, event, conversationId, messageId });
  if (row.facts === null || row.facts === undefined) return { rules: [], facts: null };
  const cached = ruleCache.get(accountId);
  const account = cached && cached.version === row.version ? cached : await loadAccountRules(tx, accountId, row.version);
  return { rules: account.byEvent.get(event) ?? [], facts: factsOf(row.facts) };
}

/**
 * Runs the account's enabled rules for a recorded event, in position order, in the event's own
 * transaction: what a rule does commits (or not) with the event. Each action runs under a
 * savepoint: one that fails (a template no longer approved) is recorded as skipped and the
 * event, and the other actions, still commit. A blocked contact's conversation triggers nothing.
 */
export async function runAutomations(ctx: VerbContext, envelope: EventEnvelope): Promise<void> {
  if (!isAutomationEvent(envelope.type) || runningActions.getStore()) return;
  const { accountId, db: tx } = ctx;
  const { conversationId, messageId } = subjectOf(envelope);
  if (!conversationId) return;
  const found = await enabledRules(tx, { accountId, event: envelope.type, conversationId, messageId });
  const rules = found.rules;
  if (rules.length === 0) return;
  await runningActions.run(true, async () => {
    const now = new Date();
    let facts = found.facts;
    // One reader while the facts hold: the hours and the contact's labels are loaded once.
    let read = facts && readerOf(tx, { accountId, facts, at: now });
    for (const rule of rules) {
      if (!facts || !read || facts.blocked) return;
      if (!(await allConditionsHold(rule.conditions, read))) continue;
      const actor: RunActor = { type: "automation", automation: { id: rule.id, name: rule.name }, authorId: rule.authorId };
      const results: ActionResult[] = [];
      for (const action of rule.actions) {
        results.push(await runGuarded(tx, () => runAction({ db: tx, react: ctx.react, accountId, conversationId, actor, now, event: { id: envelope.id, type: envelope.type } }, action), action));
      }
      await recordActivity(tx, {
        accountId,
        conversationId,
        type: "automation",
        actor: { type: "automation" },
        data: { automation: actor.automation, event: envelope.type, actions: results },
        at: now,
      });
      await recordAudit(tx, { accountId, actor: { type: "automation", id: rule.id, name: rule.name }, action: "automation.ran", target: { type: "conversation", id: conversationId }, at: now });
      // The next rule sees what this one changed.
      if (results.some((r) => r.result === "done")) {
        facts = await loadConversationFacts(tx, { accountId, conversationId, messageId });
        read = facts && readerOf(tx, { accountId, facts, at: now });
      }
    }
  });
}

/** One action under a savepoint: a refusal (an ApiError) rolls back that action alone and is reported as skipped. */
async function runGuarded(tx: Executor, run: () => Promise<ActionResult>, action: AutomationActionInput): Promise<ActionResult> {
  try {
    return await tx.transaction(async () => run());
  } catch (error) {
    if (error instanceof ApiError) return { type: action.type, result: "skipped", reason: error.message };
    throw error;
  }
}
