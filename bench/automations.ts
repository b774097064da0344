import { getDb } from "@/db";
import { createAccountWithUser } from "@/lib/accounts/create-account";
import { automations, labels } from "@/db/schema";
import type { AutomationActionInput, AutomationConditionInput } from "@/lib/automations/schemas";
import { newId } from "@/lib/platform/ids";
import { receiveInboundMessage } from "@/lib/messages/receive-inbound";
import { type Bench, createBenchAccount, log, openBenchDatabase, percentile, round } from "./support";
import { systemContext } from "@/lib/server/context";

const GOAL_OVERHEAD_MS = 5;
const RULES = 10;

// Each customer always sends the same text (sequence modulo 50 and 5): the warm-up makes every
// conversation and labels the price questions once, so the timed messages are the steady state.
const sizes = (smoke: boolean) => (smoke ? { customers: 10, warmup: 10, pairs: 20 } : { customers: 50, warmup: 100, pairs: 600 });

/**
 * Ten rules as a team would write them: words in the text, a pattern, an attribute, the hours,
 * the labels; two of them label price and order questions not yet labelled.
 */
function rulesFor(labelId: string): { conditions: AutomationConditionInput[]; actions: AutomationActionInput[] }[] {
  const label: AutomationActionInput[] = [{ type: "add_label", label_id: labelId }];
  const webhook: AutomationActionInput[] = [{ type: "emit_webhook" }];
  return [
    { conditions: [{ field: "message.text", operator: "contains", value: "price" }, { field: "conversation.labels", operator: "not_contains", value: "Sales" }], actions: label },
    { conditions: [{ field: "message.text", operator: "matches", value: "\\b(refund|money back)\\b" }], actions: webhook },
    { conditions: [{ field: "message.text", operator: "starts_with", value: "urgent" }], actions: webhook },
    { conditions: [{ field: "contact.attributes.tier", operator: "equals", value: "gold" }], actions: webhook },
    { conditions: [{ field: "message.language", operator: "equals", value: "de" }], actions: webhook },
    { conditions: [{ field: "conversation.labels", operator: "contains", value: "VIP" }], actions: webhook },
    { conditions: [{ field: "contact.name", operator: "matches", value: "^zz" }], actions: webhook },
    { conditions: [{ field: "business_hours", operator: "equals", value: "closed" }, { field: "message.text", operator: "contains", value: "complaint" }], actions: webhook },
    { conditions: [{ field: "message.text", operator: "matches", value: "order\\s*#?\\d{4,}" }, { field: "conversation.labels", operator: "not_contains", value: "Sales" }], actions: label },
    { conditions: [{ field: "conversation.status", operator: "equals", value: "closed" }], actions: webhook },
  ];
}

/**
 * Recording an inbound message (receiveInboundMessage, the path of every customer message) in an
 * account with 10 enabled rules on message.received, against the same message in an account
 * without rules, alternating message by message in the same run and the same database.
 */
export const automationsBench: Bench = {
  name: "automations-overhead",
  description: `p95 added to recording an inbound message by ${RULES} enabled automation rules (goal < ${GOAL_OVERHEAD_MS} ms)`,
  async run({ smoke }) {
    const size = sizes(smoke);
    await openBenchDatabase();
    const db = getDb();
    // Two accounts alike in everything but the rules: one has the ten, enabled; the other none.
    const { account: withRules } = await createBenchAccount();
    const { account: without } = await db.transaction((tx) =>
      createAccountWithUser(tx, { accountName: "Bench Co without rules", name: "Bench Admin", email: "bench-without@example.com", password: "bench-password-123" }),
    );
    const now = new Date();
    for (const account of [withRules, without]) {
      const [label] = await db.insert(labels).values({ id: newId("label", now), accountId: account.id, name: "Sales", color: "#16a34a", createdAt: now }).returning();
      if (account !== withRules) continue;
      await db.insert(automations).values(
        rulesFor(label.id).map((rule, position) => ({
          id: newId("automation"),
          accountId: account.id,
          name: `Rule ${position + 1}`,
          enabled: true,
          event: "message.received",
          conditions: rule.conditions,
          actions: rule.actions,
          position,
          createdAt: now,
          updatedAt: now,
        })),
      );
    }

    const texts = ["What is the price of a monstera?", "Do you deliver on Sundays?", "Where is order #12345?", "hola, tienen macetas?", "thanks!"];
    const receive = async (accountId: string, sequence: number) => {
      const started = performance.now();
      await receiveInboundMessage(systemContext(), {
        accountId,
        inbound: { networkMessageId: `bench-${accountId}-${sequence}`, from: String(4477100000000 + (sequence % size.customers)), type: "text", text: texts[sequence % texts.length] },
      });
      return performance.now() - started;
    };

    log(`warming up both accounts with ${size.customers} customers each…`);
    let sequence = 0;
    for (let i = 0; i < size.warmup; i++, sequence++) {
      await receive(without.id, sequence);
      await receive(withRules.id, sequence);
    }
    const off: number[] = [];
    const on: number[] = [];
    // The same message to each account, in alternating order, so that both sides see the same
    // moments of a shared machine.
    log(`${size.pairs} messages to each account, alternating…`);
    for (let pair = 0; pair < size.pairs; pair++, sequence++) {
      if (pair % 2 === 0) {
        off.push(await receive(without.id, sequence));
        on.push(await receive(withRules.id, sequence));
      } else {
        on.push(await receive(withRules.id, sequence));
        off.push(await receive(without.id, sequence));
      }
    }
    const p95Off = percentile(off, 95);
    const p95On = percentile(on, 95);
    const overhead = p95On - p95Off;
    return {
      name: this.name,
      rules: RULES,
      samples_each: off.length,
      p50_without_ms: round(percentile(off, 50)),
      p50_with_ms: round(percentile(on, 50)),
      p95_without_ms: round(p95Off),
      p95_with_ms: round(p95On),
      p95_overhead_ms: round(overhead),
      goal: `p95 overhead < ${GOAL_OVERHEAD_MS} ms`,
      pass: smoke ? true : overhead < GOAL_OVERHEAD_MS,
    };
  },
};
