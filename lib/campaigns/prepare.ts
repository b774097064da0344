import type { SystemContext } from "@/lib/auth/context";
import type { Campaign, Contact } from "@/db/schema";
import { contactAddress } from "@/lib/contacts/identity";
import { findContactRows } from "@/lib/contacts/store";
import { findActiveConversations } from "@/lib/conversations/store";
import { createConversations } from "@/lib/conversations/start-conversation";
import { previewOf } from "@/lib/messages/schemas";
import type { MessageKindContent } from "@/lib/messages/kinds";
import { failQueuedMessages, insertMessages, type NewMessage, storeMedia, touchConversationsKeepingUnread } from "@/lib/messages/store";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import { ApiError } from "@/lib/platform/errors";
import { prepareTemplateSends } from "@/lib/templates/prepare-send";
import { variableValue } from "./audience";
import { lockPendingRecipients, updateRecipients } from "./store/prepare";

export type Due = { id: number; contactId: string; messageId: string; attempts: number };
export type Written = Awaited<ReturnType<typeof insertMessages>>[number];
export type Integration = Awaited<ReturnType<typeof loadNumberIntegration>>;

/**
 * A part of the second's share, made ready in one short transaction (a statement per step for
 * all of its recipients, not per recipient): those who may no longer be messaged (blocked,
 * opted out, no consent, a missing variable, a template that no longer fits) are skipped or
 * failed with the reason; the others get their message (queued) in their open conversation or
 * in a new closed one. They stay `pending`: each is claimed just before its turn. Locked with
 * SKIP LOCKED, so another process making the same recipients ready never waits for nor doubles
 * them. Parts are small so that an agent's send, which waits for the embedded database's
 * transaction in progress, never waits long.
 */
export async function prepareShare(ctx: SystemContext, campaign: Campaign, ids: number[], requireOptIn: boolean, at: Date) {
  return ctx.db.transaction(async (tx) => {
    const rows = await lockPendingRecipients(tx, { campaignId: campaign.id, ids });
    if (!rows.length) return { due: [] as Due[], written: new Map<string, Written>(), integration: undefined };
    const found = await findContactRows(tx, { accountId: campaign.accountId, ids: rows.map((r) => r.contactId) });
    const contactOf = new Map(found.map((c) => [c.id, c]));

    const settled: { id: number; status: "skipped" | "failed"; reason: string; messageId: string | null }[] = [];
    const ready: Due[] = [];
    const toWrite: { row: (typeof rows)[number]; contact: Contact; values: string[] }[] = [];
    for (const row of rows) {
      const contact = contactOf.get(row.contactId);
      const reason = !contact ? "contact_deleted" : contact.blocked ? "blocked" : contact.marketingOptIn === false ? "opted_out" : contact.marketingOptIn === null && requireOptIn ? "no_consent" : null;
      if (reason || !contact) {
        settled.push({ id: row.id, status: "skipped", reason: reason ?? "contact_deleted", messageId: row.messageId });
        continue;
      }
      if (row.messageId) {
        ready.push({ id: row.id, contactId: row.contactId, messageId: row.messageId, attempts: row.attempts });
        continue;
      }
      const values = campaign.template.variables.map((variable) => variableValue(variable, contact));
      if (values.some((value) => value === null)) settled.push({ id: row.id, status: "skipped", reason: "missing_variable", messageId: null });
      else toWrite.push({ row, contact, values: values as string[] });
    }

    const prepared = await prepareTemplateSends(tx, {
      accountId: campaign.accountId,
      name: campaign.template.name,
      language: campaign.template.language,
      sends: toWrite.map((w) => ({ variables: w.values })),
    });
    const writable = toWrite.flatMap((w, i) => {
      const p = prepared[i];
      if (p instanceof ApiError) {
        settled.push({ id: w.row.id, status: "failed", reason: p.code, messageId: null });
        return [];
      }
      return [{ ...w, prepared: p }];
    });

    const integration = await loadNumberIntegration(tx, campaign.accountId);
    const written = new Map<string, Written>();
    if (writable.length) {
      // The message joins the customer's open conversation; without one it starts a closed one,
      // kept out of the inbox until the customer answers (their reply reopens it).
      const contactIds = writable.map((w) => w.contact.id);
      const active = await findActiveConversations(tx, { accountId: campaign.accountId, contactIds });
      const created = await createConversations({ ...ctx, db: tx }, {
        accountId: campaign.accountId,
        contacts: writable.filter((w) => !active.has(w.contact.id)).map((w) => w.contact),
        at,
        actor: { type: "automation" },
        closed: true,
      });
      const conversationOf = (contactId: string) => (active.get(contactId) ?? created.get(contactId))!.id;
      const newMessages: NewMessage[] = [];
      for (const w of writable) {
        const stored = w.prepared.media ? await storeMedia(tx, { accountId: campaign.accountId, file: w.prepared.media, at }) : null;
        newMessages.push({
          at,
          accountId: campaign.accountId,
          conversationId: conversationOf(w.contact.id),
          direction: "outbound",
          fromNumber: businessNumberOf(integration),
          toNumber: contactAddress(w.contact),
          type: "template",
          text: w.prepared.text,
          mediaId: stored?.id ?? null,
          content: { template: w.prepared.content },
          contextMessageId: null,
          status: "queued",
          senderType: "automation",
          senderUserId: null,
        });
      }
      const inserted = await insertMessages(tx, newMessages);
      await touchConversationsKeepingUnread(tx, {
        at,
        list: inserted.map((m) => ({ conversationId: m.conversationId, preview: previewOf({ type: "template", text: m.text, content: m.content as MessageKindContent }) })),
      });
      writable.forEach((w, i) => {
        written.set(inserted[i].id, inserted[i]);
        ready.push({ id: w.row.id, contactId: w.contact.id, messageId: inserted[i].id, attempts: w.row.attempts });
      });
    }

    const updates = [
      ...settled.map((x) => ({ id: x.id, status: x.status, reason: x.reason, message_id: null })),
      ...ready.filter((r) => written.has(r.messageId)).map((r) => ({ id: r.id, status: null, reason: null, message_id: r.messageId })),
    ];
    if (updates.length) {
      await updateRecipients(tx, { updates, at });
    }
    // A message written for an earlier attempt is not left queued in the conversation.
    for (const reason of new Set(settled.filter((x) => x.messageId).map((x) => x.reason))) {
      const abandoned = settled.flatMap((x) => (x.messageId && x.reason === reason ? [x.messageId] : []));
      await failQueuedMessages(tx, { ids: abandoned, error: { code: reason, message: "Not sent: the campaign skipped this customer." }, at });
    }
    ready.sort((a, b) => a.id - b.id);
    return { due: ready, written, integration };
  });
}

