import type { ConversationWithContact } from "./schemas";
import type { SystemContext } from "@/lib/auth/context";
import type { Conversation } from "@/db/schema";
import { presentConversation } from "@/lib/conversations/schemas";
import { recordEvent } from "@/lib/events/record-event";
import type { InteractiveReply } from "@/lib/network/types";
import { CSAT_ANSWER_WINDOW_MS } from "@/lib/csat/schemas";
import { rateConversationOnce } from "./store";

const choiceId = /^csat_([1-5])$/;
const bareDigit = /^\s*([1-5])\s*$/;

/**
 * The score a customer's message gives to the survey of `conversation`, or null when it is an
 * ordinary message. It counts only within 24 h of the survey and while the conversation has no
 * score yet. The choice from the list counts whatever the conversation's status; a bare digit
 * 1–5 counts only while the conversation is still closed (once it is reopened, "3" may answer an
 * agent's question rather than the survey).
 */
export function surveyScoreOf({
  conversation,
  text,
  interactive,
  at,
}: {
  conversation: Pick<Conversation, "status" | "csatAskedAt" | "csatScore">;
  text?: string;
  interactive?: InteractiveReply;
  at: Date;
}): number | null {
  if (!conversation.csatAskedAt || conversation.csatScore !== null) return null;
  const age = at.getTime() - conversation.csatAskedAt.getTime();
  if (age < 0 || age > CSAT_ANSWER_WINDOW_MS) return null;
  if (interactive?.type === "list_reply") {
    const match = choiceId.exec(interactive.id);
    return match ? Number(match[1]) : null;
  }
  if (conversation.status !== "closed" || text === undefined) return null;
  const match = bareDigit.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * Stores the score on the conversation and emits `conversation.rated`, in the caller's
 * transaction. A conversation keeps its first score: a second answer changes nothing.
 */
export async function recordSurveyAnswer(
  ctx: SystemContext,
  { accountId, conversationId, contact, score, at }: { accountId: string; conversationId: string; contact: ConversationWithContact["contact"]; score: number; at: Date },
): Promise<Conversation | null> {
  const tx = ctx.db;
  const row = await rateConversationOnce(tx, { accountId, id: conversationId, score, at });
  if (!row) return null;
  await recordEvent(ctx, { accountId, type: "conversation.rated", data: { conversation: presentConversation({ ...row, contact }) } });
  return row;
}
