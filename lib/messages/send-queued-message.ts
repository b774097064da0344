import { z } from "zod";
import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import type { Message, NumberIntegration } from "@/db/schema";
import { recordEvent, recordEvents } from "@/lib/events/record-event";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";
import { adapterFor, loadNumberIntegration } from "@/lib/network/integration";
import { scheduleSandboxStatuses } from "@/lib/network/sandbox";
import type { OutboundList, OutboundMessage } from "@/lib/network/types";
import { applyEarlyStatuses } from "./early-statuses";
import type { MessageKindContent } from "./kinds";
import { presentMessage } from "./schemas";
import {
  findMedia,
  findMessage,
  findMessageRow,
  findMessageRows,
  findNetworkId,
  findNetworkIdsWithEarlyStatuses,
  endSendAttempt,
  markQueuedMessagesSent,
  startSendAttempt,
  updateQueuedMessage,
} from "./store";

/** Attempts per message before a retryable network error becomes `failed`. */
const MAX_SEND_ATTEMPTS = 5;
/** Wait after attempt n (1-based) before attempt n + 1. */
const SEND_RETRY_DELAYS_MS = [10_000, 30_000, 120_000, 600_000];

// An interactive list travels in the job's payload (the message row keeps its body as text).
const outboundList = z.object({
  type: z.literal("list"),
  body: z.string().min(1),
  button: z.string().min(1),
  rows: z.array(z.object({ id: z.string().min(1), title: z.string().min(1), description: z.string().optional() })).min(1),
});

/**
 * The `message.send` payload: the queued message, and the survey's list when it is one (a list
 * that does not parse is left out, as it always was: the message goes as its text).
 */
const sendJobPayload = z.object({ messageId: z.string().min(1), interactive: outboundList.optional().catch(undefined) });
type SendJobPayload = z.output<typeof sendJobPayload>;

export type SendOutcome = void | { retryAt: Date; error: string } | { failed: string };

async function markFailed(ctx: SystemContext, accountId: string, messageId: string, error: { code: string; message: string }) {
  await ctx.db.transaction(async (tx) => {
    const inTx = { ...ctx, db: tx };
    const now = new Date();
    const row = await updateQueuedMessage(tx, { id: messageId, set: { status: "failed", error, updatedAt: now } });
    await endSendAttempt(tx, { accountId, messageId });
    if (!row) return;
    const { media: meta } = await findMessage(tx, { accountId, id: messageId });
    await recordEvent(inTx, { accountId, type: "message.failed", data: { message: presentMessage({ ...row, media: meta }) } });
  });
}

/** The network's view of a stored message: kinds from `content`, quoted and reacted-to messages by the network's ids. */
async function outboundOf(db: Executor, message: Message): Promise<{ ok: true; outbound: OutboundMessage } | { ok: false; message: string }> {
  const content = (message.content ?? {}) as MessageKindContent;
  const outbound: OutboundMessage = {
    to: message.toNumber,
    type: message.type as OutboundMessage["type"],
    ...(message.text !== null ? { text: message.text } : {}),
    callbackData: message.id,
  };
  if (message.contextMessageId) {
    // A quote of a message the network never carried (still queued, or failed) is sent as a plain message.
    const networkMessageId = await findNetworkId(db, { accountId: message.accountId, id: message.contextMessageId });
    if (networkMessageId) outbound.context = { networkMessageId };
  }
  if (message.type === "location" && content.location) outbound.location = content.location;
  if (message.type === "template" && content.template) {
    const { name, language, variables, header, buttons } = content.template;
    outbound.template = {
      name,
      language,
      variables,
      ...(header && header.format !== "TEXT" ? { header: { format: header.format, ...(header.location ? { location: header.location } : {}) } } : {}),
      ...(buttons?.some((b) => b.value !== undefined)
        ? {
            buttons: buttons.flatMap((b) =>
              b.value !== undefined && b.type !== "PHONE_NUMBER" ? [{ index: b.index, type: b.type, value: b.value }] : [],
            ),
          }
        : {}),
    };
  }
  const interactiveType = (content.interactive as { type?: string } | undefined)?.type;
  if (message.type === "interactive" && (interactiveType === "button" || interactiveType === "list")) {
    outbound.interactive = content.interactive as OutboundMessage["interactive"];
  }
  if (message.type === "interactive" && interactiveType === "flow") {
    // The flow's answers carry this token back, so they can be matched with this message.
    const flow = content.interactive as Extract<OutboundMessage["interactive"], { type: "flow" }>;
    outbound.interactive = { ...flow, flow_token: flow.flow_token ?? message.id };
  }
  if (message.type === "reaction" && content.reaction) {
    const networkMessageId = await findNetworkId(db, { accountId: message.accountId, id: content.reaction.message_id });
    if (!networkMessageId) return { ok: false, message: "The message reacted to never reached the network." };
    outbound.reaction = { networkMessageId, emoji: content.reaction.emoji };
  }
  return { ok: true, outbound };
}

/**
 * One attempt to hand a queued message to the network (job `message.send`, run by the local
 * runner or by Inngest's generic run-job function). Idempotent: a message that is no longer
 * `queued` (sent, failed, deleted) is left alone. Success → `sent` + message.sent; a permanent error → `failed` with
 * the network's error + message.failed; a temporary one → retry later, up to MAX_SEND_ATTEMPTS.
 */
export async function sendQueuedMessage(ctx: SystemContext, payload: SendJobPayload, options: HandOverOptions = {}): Promise<SendOutcome> {
  const handed = await handOverQueuedMessage(ctx, payload, options);
  if ("outcome" in handed) return handed.outcome;
  await recordSent(ctx, handed.sent);
}

export const sendMessageJob = defineJob({
  kind: "message.send",
  schema: sendJobPayload,
  handler: (payload, { attempt, system }) => sendQueuedMessage(system, payload, { attempt }),
});

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "message.send": PayloadOf<typeof sendMessageJob>;
  }
}

/** A message the network took, with its id there, not yet recorded. */
export type HandedOver = { message: Message; integration: NumberIntegration; networkMessageId: string };

type HandOverOptions = {
  attempt?: number;
  /** A caller that sends many messages (a campaign) passes the rows it has just written and read. */
  loaded?: { message?: Message; integration?: NumberIntegration };
  /**
   * The caller has committed its own record that this send is starting, and settles a send that
   * dies before its answer is recorded itself (a campaign's recipient, claimed `sending`).
   */
  startRecordedByCaller?: boolean;
};

const INTERRUPTED = {
  code: "interrupted",
  message: "Sending stopped while this message was being handed to the network (a crash or restart); it may have arrived, so it was not sent again. Send it again if the customer did not get it.",
};

/**
 * The first half of `sendQueuedMessage`: hands the message to the network and, when the
 * network took it, leaves recording that to the caller (`recordSentMessages`, for a sender of
 * many messages that records their answers together). A refusal, or a message that cannot be
 * sent, is handled here as `sendQueuedMessage` handles it. A message whose earlier send started
 * and never had its answer recorded is not sent again: it fails as `interrupted`.
 */
export async function handOverQueuedMessage(
  ctx: SystemContext,
  { messageId, interactive }: SendJobPayload,
  { attempt = 1, loaded, startRecordedByCaller = false }: HandOverOptions = {},
): Promise<{ sent: HandedOver } | { outcome: SendOutcome }> {
  const db = ctx.db;
  // A caller that sends many messages (a campaign) passes the rows it has just written and read.
  const message = loaded?.message?.id === messageId ? loaded.message : await findMessageRow(db, { id: messageId });
  if (!message || message.status !== "queued" || message.deletedAt) return { outcome: undefined };

  const integration = loaded?.integration?.accountId === message.accountId ? loaded.integration : await loadNumberIntegration(db, message.accountId);
  const built = adapterFor(integration);
  if (!built.ok) {
    await markFailed(ctx, message.accountId, message.id, { code: "number_not_configured", message: built.message });
    return { outcome: undefined };
  }

  const prepared = await outboundOf(db, message);
  if (!prepared.ok) {
    await markFailed(ctx, message.accountId, message.id, { code: "invalid_message", message: prepared.message });
    return { outcome: undefined };
  }
  const outbound = prepared.outbound;
  // The satisfaction survey's list travels in the job's payload (the message row keeps its body as text).
  if (interactive) {
    const survey: OutboundList = interactive;
    Object.assign(outbound, {
      type: "interactive",
      interactive: { type: "list", body: survey.body, button: survey.button, sections: [{ title: survey.button, rows: survey.rows }] },
    });
  }
  if (message.mediaId) {
    const file = await findMedia(db, { id: message.mediaId });
    if (!file) {
      await markFailed(ctx, message.accountId, message.id, { code: "media_missing", message: "The message's media is no longer stored." });
      return { outcome: undefined };
    }
    outbound.media = { mimeType: file.mimeType, bytes: file.bytes, ...(file.filename ? { filename: file.filename } : {}), ...(file.caption ? { caption: file.caption } : {}) };
  }

  if (!startRecordedByCaller && !(await startSendAttempt(db, message))) {
    await markFailed(ctx, message.accountId, message.id, INTERRUPTED);
    return { outcome: undefined };
  }
  const result = await built.adapter.send(outbound);
  if (result.ok) return { sent: { message, integration, networkMessageId: result.networkMessageId } };

  const error = { code: result.code, message: result.message };
  if (result.retryable && attempt < MAX_SEND_ATTEMPTS) {
    const delay = SEND_RETRY_DELAYS_MS[Math.min(attempt, SEND_RETRY_DELAYS_MS.length) - 1];
    if (!startRecordedByCaller) await endSendAttempt(db, { accountId: message.accountId, messageId: message.id });
    return { outcome: { retryAt: new Date(Date.now() + delay), error: `${error.code}: ${error.message}` } };
  }
  await markFailed(ctx, message.accountId, message.id, error);
  return { outcome: undefined };
}

/**
 * What follows a message's record as `sent` with the network's id, in the same transaction: its
 * message.sent event, then the statuses that came for that id before the record.
 */
export async function announceSent(ctx: SystemContext, row: Message) {
  // Only a message with a file needs its media's metadata read back.
  const meta = row.mediaId ? (await findMessage(ctx.db, { accountId: row.accountId, id: row.id })).media : null;
  await recordEvent(ctx, { accountId: row.accountId, type: "message.sent", data: { message: presentMessage({ ...row, media: meta }) } });
  await applyEarlyStatuses(ctx, { accountId: row.accountId, messageId: row.id, networkMessageId: row.networkMessageId! });
}

/** Records what the network answered for one message: `sent` with its id, message.sent, early statuses. */
async function recordSent(ctx: SystemContext, { message, integration, networkMessageId }: HandedOver) {
  await ctx.db.transaction(async (tx) => {
    const inTx = { ...ctx, db: tx };
    const now = new Date();
    const row = await updateQueuedMessage(tx, { id: message.id, set: { status: "sent", networkMessageId, error: null, updatedAt: now } });
    await endSendAttempt(tx, { accountId: message.accountId, messageId: message.id });
    if (!row) return;
    await announceSent(inTx, row);
    if (integration.provider === "sandbox") await scheduleSandboxStatuses(tx, { accountId: message.accountId, messageId: message.id, sentAt: now });
  });
}

/**
 * Records many messages the network took, of one account, in one transaction with a statement
 * per step for all of them (what `sendQueuedMessage` records for one): each `sent` with its
 * network id (unless no longer queued), their message.sent events, and the statuses that
 * arrived for them early.
 */
export async function recordSentMessages(ctx: SystemContext, list: HandedOver[]): Promise<void> {
  if (!list.length) return;
  const accountId = list[0].message.accountId;
  if (list.some((h) => h.message.accountId !== accountId)) throw new Error("recordSentMessages takes the messages of one account");
  await ctx.db.transaction(async (tx) => {
    const inTx = { ...ctx, db: tx };
    const now = new Date();
    const sent = list.map((h) => ({ id: h.message.id, network_message_id: h.networkMessageId }));
    const updated = await markQueuedMessagesSent(tx, { accountId, sent, at: now });
    if (!updated.length) return;
    const rows = await findMessageRows(tx, { accountId, ids: updated.map((r) => r.id) });
    const order = new Map(list.map((h, i) => [h.message.id, i]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const presented = [];
    for (const row of rows) {
      // Only a message with a file needs its media's metadata read back.
      const meta = row.mediaId ? (await findMessage(tx, { accountId, id: row.id })).media : null;
      presented.push(presentMessage({ ...row, media: meta }));
    }
    await recordEvents(inTx, presented.map((message) => ({ accountId, type: "message.sent" as const, data: { message } })));
    const early = await findNetworkIdsWithEarlyStatuses(tx, { accountId, networkMessageIds: rows.map((r) => r.networkMessageId!) });
    const byNetworkId = new Map(rows.map((r) => [r.networkMessageId!, r.id]));
    for (const { networkMessageId } of early) {
      await applyEarlyStatuses(inTx, { accountId, messageId: byNetworkId.get(networkMessageId)!, networkMessageId });
    }
    for (const row of rows) {
      const integration = list[order.get(row.id)!].integration;
      if (integration.provider === "sandbox") await scheduleSandboxStatuses(tx, { accountId, messageId: row.id, sentAt: now });
    }
  });
}
