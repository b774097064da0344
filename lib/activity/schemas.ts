import { z } from "zod";
import type { ConversationActivity } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

const activityTypes = ["created", "assigned", "unassigned", "closed", "reopened", "snoozed", "labeled", "unlabeled", "auto_reply", "handed_off", "automation", "macro", "team_changed", "priority_changed", "sla_applied"] as const;
export type ActivityType = (typeof activityTypes)[number];

/** Who did it: a user of the account, the automatic answers, or the customer. */
export type ActivityActor =
  | { type: "user"; id?: string; name: string | null }
  | { type: "automation" }
  | { type: "contact"; id: string; name: string | null };

/** The rule behind a change made by an automation, kept in the entry's data so the trail can name it. */
export type ActivityVia = { automation: { id: string; name: string } };

const activityActorOutput = z
  .strictObject({
    type: z.enum(["user", "automation", "contact"]),
    id: prefixedId("user", "The user (`usr_…`) or contact (`ctc_…`); absent for automation.").optional(),
    name: z.string().nullable().optional().meta({ description: "Their name when it happened.", example: "Ana" }),
  })
  .meta({ id: "ActivityActor" });

export const activityOutput = z
  .strictObject({
    id: prefixedId("activity"),
    conversation_id: prefixedId("conversation"),
    type: z.enum(activityTypes).meta({ description: "What happened." }),
    actor: activityActorOutput,
    data: z.record(z.string(), z.unknown()).meta({
      description:
        "Depends on `type`: `assigned` → `{assignee:{id,name}, auto?:true}` (auto: the first reply assigned it); `unassigned` → `{previous_assignee:{id,name}|null}`; `auto_reply` → `{kind: outside_hours|hours_question|assistant}`; `handed_off` → `{reason: asked_for_person|below_threshold|no_answer|ungrounded|model_error}` (the answer assistant left the conversation, unassigned, to a person); `snoozed` → `{until}`; `automation` → `{automation:{id,name}, event, actions:[{type,result,reason?}]}` (a rule ran; each change it made has its own entry carrying `automation`); `macro` → `{macro:{id,name}, actions:[…]}`; `labeled`/`unlabeled` → `{label:{id,name,color}}`; `team_changed` → `{team:{id,name}|null}`; `priority_changed` → `{priority}`; `sla_applied` → `{sla_policy:{id,name}|null}`; an `assigned` by the assignment policy has actor `automation` and `{assignee, policy: round_robin|balanced}`; otherwise `{}`.",
      example: { assignee: { id: "usr_01jd2x8k3f0m6q1v9w4r7t5y2z", name: "Bruno" } },
    }),
    created_at: isoTimestamp(),
  })
  .meta({ id: "Activity", description: "One entry of a conversation's activity trail." });
export type ActivityOutput = z.infer<typeof activityOutput>;

export function presentActivity(row: ConversationActivity): ActivityOutput {
  const actor: ActivityOutput["actor"] =
    row.actorType === "automation"
      ? { type: "automation" }
      : { type: row.actorType, ...(row.actorId ? { id: row.actorId } : {}), name: row.actorName };
  return { id: row.id, conversation_id: row.conversationId, type: row.type as ActivityType, actor, data: row.data, created_at: row.createdAt.toISOString() };
}

/** The actor for a signed-in user. */
export const userActor = (user: { id: string; name: string }): ActivityActor => ({ type: "user", id: user.id, name: user.name });
