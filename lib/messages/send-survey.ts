import { contactAddress } from "@/lib/contacts/identity";
import { z } from "zod";
import type { SystemContext, VerbContext } from "@/lib/auth/context";
import { findContactAddress } from "@/lib/contacts/store";
import { lockAccountConversationRow, updateConversationRow } from "@/lib/conversations/store";
import { queueOutboundMessage } from "@/lib/messages/send-message";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import { loadCsatConfig } from "@/lib/csat/config";
import { csatChoiceId, csatScores } from "@/lib/csat/schemas";
import { csatTexts, surveyQuestionIn } from "@/lib/csat/texts";
import { conversationLanguage } from "./conversation-language";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";

const surveyJob = z.object({ accountId: z.string(), conversationId: z.string(), closedAt: z.string() });

/**
 * The `csat.survey` job: sends the survey question as an interactive list with the scores 1 to 5,
 * through the same outbound path as every message (queued, then sent by `message.send`), from
 * "automation", in the customer's language (see `conversationLanguage`). Asked at most once per close: nothing is sent when the conversation was reopened
 * (or closed again) since, was already rated, was already asked for this close, or the survey was
 * switched off meanwhile.
 */
async function sendSurvey(ctx: SystemContext, { accountId, conversationId, closedAt }: z.output<typeof surveyJob>) {
  await ctx.db.transaction(async (tx) => {
    const conversation = await lockAccountConversationRow(tx, { accountId, id: conversationId });
    if (!conversation || conversation.status !== "closed" || conversation.closedAt?.toISOString() !== closedAt) return;
    if (conversation.csatScore !== null) return;
    if (conversation.csatAskedAt && conversation.csatAskedAt >= conversation.closedAt) return;
    const config = await loadCsatConfig(tx, accountId);
    if (!config.enabled) return;
    const contact = await findContactAddress(tx, { id: conversation.contactId });
    if (!contact) return;

    const integration = await loadNumberIntegration(tx, accountId);
    const language = await conversationLanguage(tx, { accountId, conversationId });
    const texts = csatTexts[language];
    await queueOutboundMessage({ accountId, db: tx }, {
      conversationId,
      from: businessNumberOf(integration),
      to: contactAddress(contact),
      // Stored as what it is, an interactive list (its question is the list's body, as for every
      // interactive message), so that the thread and the API show what the customer sees.
      type: "interactive",
      text: null,
      sender: { type: "automation" },
      content: {
        interactive: {
          type: "list",
          body: surveyQuestionIn(config.question, language),
          button: texts.button,
          sections: [{ title: texts.button, rows: csatScores.map((score) => ({ id: csatChoiceId(score), title: texts.choices[score] })) }],
        },
      },
    });
    await updateConversationRow(tx, { id: conversationId, set: { csatAskedAt: new Date() } });
  });
}

export const surveyJobDefinition = defineJob({ kind: "csat.survey", schema: surveyJob, handler: (payload, job) => sendSurvey(job.system, payload) });

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "csat.survey": PayloadOf<typeof surveyJobDefinition>;
  }
}

/**
 * Thanks a customer for a survey answer, in their language, from "automation", in the
 * transaction that recorded the score (once: only the first answer is recorded).
 */
export async function thankForSurveyAnswer(ctx: Pick<VerbContext, "accountId" | "db">, { conversationId, from, to }: { conversationId: string; from: string; to: string }) {
  const language = await conversationLanguage(ctx.db, { accountId: ctx.accountId, conversationId });
  await queueOutboundMessage(ctx, {
    conversationId,
    from,
    to,
    type: "text",
    text: csatTexts[language].thanks,
    sender: { type: "automation" },
  });
}
