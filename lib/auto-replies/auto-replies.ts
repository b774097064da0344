import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import type { AutoReplySettings } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import { presentConversation } from "@/lib/conversations/schemas";
import { findConversation } from "@/lib/conversations/store";
import { recordEvent } from "@/lib/events/record-event";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { detectMessageLanguage } from "@/lib/platform/language/detect";
import { isDefaultOutsideHoursMessage, outsideHoursDefaults } from "./texts";
import type { AssistantPlan, HandoffReason } from "@/lib/assistant/out-of-hours";
import { detectHoursQuestion } from "./hours-question";
import { findConversationAssignee, findMessageToAnswer, lockAutoReplyState, markAutoReplyHandled, unassignConversationRow } from "./store";
import {
  hoursAnswerIntro,
  nextOpeningSentence,
  formatWeeklyHours,
  type Hours,
  type HoursLanguage,
  isOpenAt,
} from "@/lib/profile/hours";

/** The outside-hours answer goes to one conversation at most once in this long. */
const OUTSIDE_HOURS_COOLDOWN_MS = 12 * 60 * 60 * 1000;

/**
 * An automatic answer decided later than this after the customer wrote is dropped: "we are
 * closed" sent hours late, when the team may already be answering, does more harm than good.
 */
const AUTO_REPLY_MAX_DELAY_MS = 15 * 60 * 1000;

type AutoReplyKind = "outside_hours" | "hours_question";

export type AutoReplyDecision = {
  kind: AutoReplyKind;
  text: string;
  language: HoursLanguage;
  /** This answer is (also) the outside-hours answer: it starts the 12-hour quiet period. */
  countsAsOutsideHours: boolean;
};

const nextOpeningLine = nextOpeningSentence;

/** Fills the variables the automatic messages may use. */
function fillVariables(text: string, businessName: string | undefined): string {
  return businessName ? text.replaceAll("{{business.name}}", businessName) : text;
}

/**
 * What the automation answers to one inbound message (pure: same input, same answer).
 *
 * - Outside-hours: when the business is closed at `now`, the configured message plus the next
 *   opening time (business time zone), unless the conversation already had an outside-hours answer
 *   in the last 12 hours.
 * - Hours question: when the text asks about opening hours (English, Spanish, Portuguese), the
 *   weekly hours; while closed it also says when the business next opens.
 * - Both at once: a single message answers both: the outside-hours message and next opening, then the
 *   weekly hours. It counts as the outside-hours answer for the 12-hour rule. An hours question is
 *   always answered, even inside the quiet period: the customer asked.
 *
 * Language: one answer is wholly in one language, never a mix. The customer's language comes from
 * their message. An answer that carries the outside-hours message is in the customer's language
 * when the message exists in it (the message itself, or one of its translations); otherwise in the
 * language the message is written in (detected, else the business's language), product sentences
 * included. An answer made only of product sentences (weekly hours, next opening) is in the
 * customer's language. A message with no clue ("ok", a photo) is answered in the business's language.
 */
export function decideAutoReplies({
  profile,
  conversation,
  message,
  now,
}: {
  profile: { name?: string; language?: HoursLanguage; hours: Hours | null; autoReply: AutoReplySettings | null };
  conversation: { lastAutoReplyAt: Date | null };
  message: { direction: "inbound" | "outbound"; text: string | null };
  now: Date;
}): AutoReplyDecision[] {
  const { hours, autoReply } = profile;
  if (message.direction !== "inbound" || !hours || !autoReply) return [];
  const text = message.text ?? "";
  const closed = !isOpenAt({ hours, at: now });
  // An account that kept the product's own words (or wrote none) has them in every language.
  const productWords = isDefaultOutsideHoursMessage(autoReply.outside_hours.message);
  const quiet =
    conversation.lastAutoReplyAt !== null && now.getTime() - conversation.lastAutoReplyAt.getTime() < OUTSIDE_HOURS_COOLDOWN_MS;
  const outsideDue = autoReply.outside_hours.enabled && closed && !quiet;
  const questionLanguage = autoReply.hours_question.enabled && text ? detectHoursQuestion(text) : null;

  const businessLanguage = profile.language ?? (productWords ? null : detectMessageLanguage(autoReply.outside_hours.message)) ?? "en";
  const outsideMessage = productWords ? outsideHoursDefaults[businessLanguage] : autoReply.outside_hours.message.trim();
  const messageLanguage = productWords ? businessLanguage : (detectMessageLanguage(outsideMessage) ?? businessLanguage);
  const customerLanguage = questionLanguage ?? detectMessageLanguage(text);
  const translations = autoReply.outside_hours.translations ?? {};
  const outsideTextIn = (language: HoursLanguage): string | null => {
    const translated = translations[language]?.trim();
    if (translated) return translated;
    if (productWords) return outsideHoursDefaults[language];
    return language === messageLanguage ? outsideMessage : null;
  };
  // The language of an answer that carries the outside-hours message.
  const outsideLanguage = customerLanguage && outsideTextIn(customerLanguage) ? customerLanguage : messageLanguage;
  const outsideText = (language: HoursLanguage) => fillVariables(outsideTextIn(language) ?? outsideMessage, profile.name);

  if (questionLanguage) {
    const language = outsideDue ? outsideLanguage : questionLanguage;
    const opening = closed ? nextOpeningLine({ hours, at: now, language }) : null;
    const head = [outsideDue ? outsideText(language) : null, opening].filter(Boolean).join("\n");
    const answer = `${hoursAnswerIntro[language]}\n${formatWeeklyHours({ hours, locale: language })}`;
    return [{ kind: "hours_question", text: head ? `${head}\n\n${answer}` : answer, language, countsAsOutsideHours: outsideDue }];
  }
  if (outsideDue) {
    const language = customerLanguage ? outsideLanguage : outsideTextIn(businessLanguage) ? businessLanguage : messageLanguage;
    const opening = nextOpeningLine({ hours, at: now, language });
    const reply = outsideText(language);
    return [{ kind: "outside_hours", text: opening ? `${reply}\n${opening}` : reply, language, countsAsOutsideHours: true }];
  }
  return [];
}

/**
 * Sends one automated text in a conversation. It must store the message with
 * `sender.type = "automation"` and queue it through the same path as agents' messages, in `tx`
 * so that the answer exists exactly when this run commits.
 */
export type SendAutomatedMessage = (input: {
  tx: Executor;
  accountId: string;
  conversationId: string;
  to: string;
  text: string;
}) => Promise<unknown>;

/**
 * Leaves a conversation to a person: unassigned (so the whole team sees it waiting) with an entry
 * in its activity trail saying why the answer assistant did not answer.
 */
async function handOff(
  ctx: SystemContext,
  { accountId, conversation, reason, onlyIfAssigned = false }: { accountId: string; conversation: { id: string; status: string }; reason: HandoffReason; onlyIfAssigned?: boolean },
) {
  const db = ctx.db;
  const before = await findConversationAssignee(db, { accountId, id: conversation.id });
  if (onlyIfAssigned && !before?.assignedTo) return;
  if (before?.assignedTo) {
    await unassignConversationRow(db, { accountId, id: conversation.id, wasAssignedStatus: conversation.status === "assigned", at: new Date() });
    // The same event as an unassign by hand, without a `user`: nobody acted, the assistant did.
    const updated = await findConversation(db, { accountId, id: conversation.id });
    await recordEvent(ctx, { accountId, type: "conversation.unassigned", data: { conversation: presentConversation(updated) } });
  }
  await recordActivity(db, { accountId, conversationId: conversation.id, type: "handed_off", actor: { type: "automation" }, data: { reason } });
}

/**
 * Decides and sends the automatic answers to one stored inbound message. Runs in `ctx.db` when it
 * is a transaction (the inbound one), else in its own. Safe to run again for the same message: the
 * conversation row is locked and remembers the newest inbound message handled, so a retried job
 * (or a late one for an older message) sends nothing.
 */
export async function runAutoReplies(
  ctx: SystemContext,
  {
    accountId,
    conversationId,
    messageId,
    send,
    now = new Date(),
    assistant = null,
  }: {
    accountId: string;
    conversationId: string;
    messageId: string;
    send: SendAutomatedMessage;
    now?: Date;
    /** The answer assistant's reply to this message, decided beforehand (see planAssistantReply). */
    assistant?: AssistantPlan | null;
  },
): Promise<{ replies: AutoReplyDecision[]; skipped?: "not_found" | "not_inbound" | "already_handled" | "too_late" }> {
  const work = async (db: Executor) => {
    const conversation = await lockAutoReplyState(db, { accountId, id: conversationId });
    if (!conversation) return { replies: [], skipped: "not_found" as const };
    const message = await findMessageToAnswer(db, { accountId, conversationId, id: messageId });
    if (!message) return { replies: [], skipped: "not_found" as const };
    if (message.direction !== "inbound" || message.senderType !== "contact") return { replies: [], skipped: "not_inbound" as const };
    // Ids are time-sortable: anything at or before the handled one has had its chance.
    if (conversation.handled && conversation.handled >= message.id) return { replies: [], skipped: "already_handled" as const };

    const markHandled = (extra: { lastAutoReplyAt?: Date } = {}) => markAutoReplyHandled(db, { id: conversation.id, messageId: message.id, ...extra });
    if (now.getTime() - message.createdAt.getTime() > AUTO_REPLY_MAX_DELAY_MS) {
      await markHandled();
      return { replies: [], skipped: "too_late" as const };
    }

    const profile = await loadBusinessProfile(db, accountId);
    // Judged at the moment the customer wrote, not when this job happens to run.
    const at = message.createdAt;
    const replies = decideAutoReplies({
      profile: { name: profile.name, language: profile.language, hours: profile.hours, autoReply: profile.autoReply },
      conversation: { lastAutoReplyAt: conversation.lastAutoReplyAt },
      message: { direction: message.direction, text: message.deletedAt ? null : message.text },
      now: at,
    });
    for (const reply of replies) {
      await send({ tx: db, accountId, conversationId, to: message.fromNumber, text: reply.text });
      await recordActivity(db, { accountId, conversationId, type: "auto_reply", actor: { type: "automation" }, data: { kind: reply.kind } });
    }
    // The assistant answers what the hours answer does not: a question about the hours is answered once.
    // "A person will answer" is said once per quiet period, like the outside-hours message: a
    // customer writing five lines at night is not told five times.
    const quiet = conversation.lastAutoReplyAt !== null && at.getTime() - conversation.lastAutoReplyAt.getTime() < OUTSIDE_HOURS_COOLDOWN_MS;
    let assistantSpoke = false;
    if (assistant && !replies.some((reply) => reply.kind === "hours_question")) {
      // Within the quiet period the customer is not told again, but the conversation is still handed over.
      if (!(assistant.kind === "handoff" && quiet)) {
        await send({ tx: db, accountId, conversationId, to: message.fromNumber, text: assistant.text });
        await recordActivity(db, { accountId, conversationId, type: "auto_reply", actor: { type: "automation" }, data: { kind: "assistant" } });
        if (assistant.kind === "handoff") assistantSpoke = true;
      }
      if (assistant.kind === "handoff") await handOff({ ...ctx, db }, { accountId, conversation, reason: assistant.reason, onlyIfAssigned: quiet });
    }
    await markHandled(replies.some((reply) => reply.countsAsOutsideHours) || assistantSpoke ? { lastAutoReplyAt: at } : {});
    return { replies };
  };
  // In the caller's transaction when it has one, else in its own.
  return "rollback" in ctx.db ? work(ctx.db) : ctx.db.transaction((inner) => work(inner));
}
