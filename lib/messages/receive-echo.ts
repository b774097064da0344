import type { SystemContext } from "@/lib/auth/context";
import { ensureContact, findActiveConversation } from "@/lib/conversations/store";
import { createConversation } from "@/lib/conversations/start-conversation";
import { recordEvent } from "@/lib/events/record-event";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import type { BusinessAppEcho } from "@/lib/network/types";
import { presentMessage, previewOf } from "./schemas";
import { findIdByNetworkId, findMessage, insertMessage, mediaNotSynced, touchConversation } from "./store";

/**
 * Stores a message sent from the business app (coexistence) as an outbound message that the
 * network already accepted: status `sent`, sender a person of the business with no Chorus
 * user (`sender: {type: "user"}` without `user_id`), `message.sent` emitted. Its media stays
 * on the phone: the message keeps its type and caption, with `error` saying the file was not
 * synced. Idempotent on the network message id, like inbound messages.
 */
export async function receiveBusinessAppEcho(ctx: SystemContext, { accountId, echo }: { accountId: string; echo: BusinessAppEcho }) {
  return ctx.db.transaction(async (tx) => {
    const existing = await findIdByNetworkId(tx, { accountId, networkMessageId: echo.networkMessageId, lock: true });
    if (existing) return { duplicate: true, message: presentMessage(await findMessage(tx, { accountId, id: existing })) };

    const integration = await loadNumberIntegration(tx, accountId);
    const contact = await ensureContact(tx, { accountId, phone: echo.to });
    const now = new Date();
    const conversation =
      (await findActiveConversation(tx, { accountId, contactId: contact.id })) ?? (await createConversation({ ...ctx, db: tx }, { accountId, contact, at: now, actor: { type: "user", name: "Business app" } }));
    const message = await insertMessage(tx, {
      at: now,
      accountId,
      conversationId: conversation.id,
      direction: "outbound",
      fromNumber: businessNumberOf(integration),
      toNumber: echo.to,
      type: echo.type,
      text: echo.type === "text" ? (echo.text ?? "") : null,
      mediaId: null,
      status: "sent",
      senderType: "user",
      senderUserId: null,
      error: echo.type === "text" ? null : mediaNotSynced(`Sent from the business app${echo.filename ? ` (${echo.filename})` : ""}`, echo.caption),
      networkMessageId: echo.networkMessageId,
    });
    await touchConversation(tx, {
      conversationId: conversation.id,
      at: now,
      preview: previewOf({ type: echo.type, text: echo.text, caption: echo.caption }),
      unread: "keep",
    });
    const output = presentMessage({ ...message, media: null });
    await recordEvent({ ...ctx, db: tx }, { accountId, type: "message.sent", data: { message: output } });
    return { duplicate: false, message: output };
  });
}
