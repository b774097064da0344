import { z } from "zod";
import type { SystemContext } from "@/lib/auth/context";
import { findCloudNumberByVerifyToken, findCloudNumbersByPhoneNumber, findCloudNumbersByPhoneNumberId } from "./store";
import { ApiError, ForbiddenError, invalidField } from "@/lib/platform/errors";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { applyMessageStatus } from "@/lib/messages/apply-status";
import { normalizeMimeType } from "@/lib/messages/media-rules";
import { receiveBusinessAppEcho } from "@/lib/messages/receive-echo";
import { type InboundInput, receiveInboundMessage, syncContactName } from "@/lib/messages/receive-inbound";
import type { MessageKindContent } from "@/lib/messages/kinds";
import { importHistoryMessage } from "@/lib/messages/import-history";
import { keepEarlyStatus } from "@/lib/messages/early-statuses";
import { recordReachedNetwork } from "@/lib/messages/reached-network";
import { recipientsReachedNetwork } from "@/lib/campaigns/outcomes";
import { applyTemplateStatus } from "@/lib/templates/status";
import { phoneNumberIdsOfBusinessAccounts } from "@/lib/templates/store";
import { findIdByNetworkId } from "@/lib/messages/store";
import { applyCustomerRevision } from "@/lib/messages/revise-inbound";
import { verifySha256Header } from "@/lib/platform/crypto/hmac";
import { defaultApiBaseUrl, loadNumberIntegration, networkUrlPolicy, secretsOf } from "@/lib/network/integration";
import type { InboundMessage, QualityUpdate } from "@/lib/network/types";
import { downloadCloudMedia, NetworkRequestError, parseNotification } from "@/lib/network/cloud";
import { applyNumberQualityUpdate } from "@/lib/accounts/number-health";

/** Largest customer media stored; bigger files are kept as a message noting the media was too large. */
const MAX_INBOUND_MEDIA_BYTES = 32 * 1024 * 1024;
const MAX_MEDIA_FETCH_ATTEMPTS = 5;
const MEDIA_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000];

/**
 * The network's subscription handshake (GET /api/network/webhook): answers the challenge
 * when the verify token is the one configured for a cloud number, else 403.
 */
export async function answerWebhookChallenge(ctx: SystemContext, { mode, verifyToken, challenge }: { mode: string | null; verifyToken: string | null; challenge: string | null }) {
  if (mode !== "subscribe") throw invalidField("hub.mode", 'must be "subscribe"');
  if (!challenge) throw invalidField("hub.challenge", "is required");
  if (!verifyToken) throw new ForbiddenError("The verify token does not match this number's settings.");
  const row = await findCloudNumberByVerifyToken(ctx.db, { verifyToken });
  if (!row) throw new ForbiddenError("The verify token does not match this number's settings.");
  return challenge;
}

const inboundMediaJob = z.object({
  accountId: z.string(),
  message: z.object({
    networkMessageId: z.string(),
    from: z.string(),
    phone: z.string().optional(),
    userId: z.string().optional(),
    username: z.string().optional(),
    name: z.string().optional(),
    type: z.enum(["image", "document", "audio", "video", "sticker"]),
    media: z.object({ networkMediaId: z.string(), mimeType: z.string(), filename: z.string().optional(), caption: z.string().optional() }),
    context: z.object({ networkMessageId: z.string() }).optional(),
    sentAt: z.iso.datetime().optional(),
  }),
});

type MediaJobPayload = z.output<typeof inboundMediaJob>;

/**
 * Handles a notification from the network (POST /api/network/webhook). Nothing is stored
 * unless the X-Hub-Signature-256 header matches the app secret of every number the batch
 * concerns. Notifications for a phone_number_id no account has connected are ignored (and
 * answered 200, so the network stops redelivering them). Text messages and statuses are applied at once; media messages are queued so
 * the answer does not wait for downloads. Everything is idempotent on the network's ids,
 * so a redelivered batch changes nothing.
 */
export async function receiveCloudWebhook(ctx: SystemContext, { rawBody, signature }: { rawBody: Buffer; signature: string | null }) {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString("utf8"));
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid JSON.");
  }
  const batch = parseNotification(payload);
  const { echoes, coexistence: coexistenceSync, templateStatuses: templateUpdates, qualityUpdates } = batch;
  if (qualityUpdates.length > 0) await receiveQualityUpdates(ctx, { rawBody, signature, updates: qualityUpdates });
  // Template statuses concern a business account, not a number: each is signed with the app
  // secret of the numbers of that business account.
  const templateNumbers = templateUpdates.length > 0 ? await phoneNumberIdsOfBusinessAccounts(ctx.db, templateUpdates.map((u) => u.businessAccountId)) : [];
  const phoneNumberIds = new Set(
    [
      batch.phoneNumberId,
      ...batch.messages.map((m) => m.phoneNumberId),
      ...batch.statuses.map((s) => s.phoneNumberId),
      ...batch.revisions.map((r) => r.phoneNumberId),
      ...echoes.map((e) => e.phoneNumberId),
      ...coexistenceSync.map((e) => e.phoneNumberId),
      ...templateNumbers,
    ].filter(
      (id): id is string => Boolean(id),
    ),
  );
  if (phoneNumberIds.size === 0) return { messages: 0, statuses: 0 };

  const db = ctx.db;
  const integrations = await findCloudNumbersByPhoneNumberId(db, { phoneNumberIds: [...phoneNumberIds] });
  const unknown = [...phoneNumberIds].filter((id) => !integrations.some((i) => i.phoneNumberId === id));
  if (unknown.length > 0) {
    // Answered 200 all the same: an error would make the network redeliver the batch for ever.
    // The ids come from an unauthenticated body, so only their safe characters are logged.
    const shown = unknown.slice(0, 5).map((id) => id.replace(/[^\w-]/g, "?").slice(0, 64));
    console.warn(`network webhook: ignored notifications for unknown phone_number_id ${shown.join(", ")}${unknown.length > 5 ? ", …" : ""}`);
  }
  if (integrations.length === 0) return { messages: 0, statuses: 0 };
  for (const integration of integrations) {
    const { appSecret } = secretsOf(integration);
    if (!appSecret || !verifySha256Header({ key: appSecret, body: rawBody, header: signature })) {
      throw new ApiError(401, "invalid_signature", "The X-Hub-Signature-256 header does not match the body signed with the app secret.");
    }
  }
  const accountOf = new Map(integrations.map((i) => [i.phoneNumberId!, i.accountId]));
  const coexisting = new Set(integrations.filter((i) => i.coexistence).map((i) => i.accountId));
  const accountFor = (phoneNumberId?: string) => accountOf.get(phoneNumberId ?? batch.phoneNumberId ?? "");

  let stored = 0;
  for (const message of batch.messages) {
    const accountId = accountFor(message.phoneNumberId);
    if (!accountId) continue;
    const { networkMessageId, from, phone, userId, username, name, context } = message;
    if (!message.media) {
      const result = await receiveInboundMessage(ctx, { accountId, inbound: inboundOf(message) });
      if ("skipped" in result) console.warn(`network webhook: skipped a message (${result.skipped})`);
      else if (!result.duplicate) stored++;
      continue;
    }
    if (await findIdByNetworkId(db, { accountId, networkMessageId })) continue;
    const { media } = message;
    // A message with media is of a media kind (the job's schema checks it again when it runs).
    const type = message.type as MediaJobPayload["message"]["type"];
    await db.transaction((tx) =>
      enqueueJob(tx, {
        kind: "message.fetch-media",
        accountId,
        payload: {
          accountId,
          message: {
            networkMessageId,
            from,
            ...(phone ? { phone } : {}),
            ...(userId ? { userId } : {}),
            ...(username ? { username } : {}),
            ...(name ? { name } : {}),
            type,
            media,
            ...(context ? { context } : {}),
            sentAt: message.timestamp.toISOString(),
          },
        },
      }),
    );
    stored++;
  }

  // A customer's edits and deletions, after the messages they may concern in the same batch.
  for (const revision of batch.revisions) {
    const accountId = accountFor(revision.phoneNumberId);
    if (!accountId) continue;
    const result = await applyCustomerRevision(ctx, { accountId, revision });
    if ("skipped" in result) console.warn(`network webhook: skipped a ${revision.kind} (${result.skipped})`);
  }

  // Coexistence: past messages of the business app and its address book.
  for (const item of coexistenceSync) {
    const accountId = accountFor(item.phoneNumberId);
    if (!accountId || !coexisting.has(accountId)) continue;
    if (item.kind === "history") {
      const result = await importHistoryMessage(ctx, { accountId, message: item.message });
      if (result.imported) stored++;
    } else {
      await syncContactName(ctx, { accountId, phone: item.phone, name: item.name });
    }
  }

  for (const update of templateUpdates) {
    await applyTemplateStatus(ctx, { businessAccountId: update.businessAccountId, update });
  }

  // Messages the business sent from the business app sync in only while coexistence is on.
  for (const echo of echoes) {
    const accountId = accountFor(echo.phoneNumberId);
    if (!accountId || !coexisting.has(accountId)) continue;
    const result = await receiveBusinessAppEcho(ctx, { accountId, echo });
    if (!result.duplicate) stored++;
  }

  let applied = 0;
  for (const status of batch.statuses) {
    const accountId = accountFor(status.phoneNumberId);
    if (!accountId) continue;
    const { networkMessageId, callbackData } = status;
    const report = { accountId, networkMessageId, status: status.status, error: status.error, ...(status.pricing ? { pricing: status.pricing } : {}) };
    const result = await db.transaction(async (tx) => {
      const inTx = { ...ctx, db: tx };
      const applied = await applyMessageStatus(inTx, report);
      if (applied || (await findIdByNetworkId(tx, { accountId, networkMessageId }))) return applied;
      // A network id no message carries yet. The callback data names the message the network
      // took: recorded now, even if the send's own record never comes (the process stopped).
      if (callbackData) {
        const reached = await recordReachedNetwork(inTx, { accountId, messageId: callbackData, networkMessageId });
        // Recorded by another transaction while this one waited for the message (the send's own
        // record, or another status of it): the status applies to it now.
        const moved = await applyMessageStatus(inTx, report);
        const messageId = reached ?? moved?.id;
        if (messageId) {
          await recipientsReachedNetwork(tx, { accountId, messageIds: [messageId] });
          return moved ?? true;
        }
        if (await findIdByNetworkId(tx, { accountId, networkMessageId })) return null;
      }
      // A status can overtake the send's own record of the network's id: kept for applyEarlyStatuses.
      await keepEarlyStatus(tx, { accountId, networkMessageId, status: status.status, error: status.error });
      return applied;
    });
    if (result) applied++;
  }
  return { messages: stored, statuses: applied };
}

/**
 * The network's reports on a number's quality and messaging limit. They name the number by its
 * display number (and the business account), not by phone_number_id; each is applied only when
 * the body is signed with the app secret of that number, and one for a number no account has
 * connected is ignored.
 */
async function receiveQualityUpdates(ctx: SystemContext, { rawBody, signature, updates }: { rawBody: Buffer; signature: string | null; updates: QualityUpdate[] }) {
  const numbers = [...new Set(updates.map((u) => `+${u.displayPhoneNumber}`))];
  const integrations = await findCloudNumbersByPhoneNumber(ctx.db, { phoneNumbers: numbers });
  for (const update of updates) {
    const matches = integrations.filter(
      (i) => (i.phoneNumber ?? "").replace(/\D/g, "") === update.displayPhoneNumber && (!update.businessAccountId || !i.businessAccountId || i.businessAccountId === update.businessAccountId),
    );
    if (matches.length !== 1) {
      console.warn(`network webhook: ignored a quality update for a number no account has connected`);
      continue;
    }
    const [integration] = matches;
    const { appSecret } = secretsOf(integration);
    if (!appSecret || !verifySha256Header({ key: appSecret, body: rawBody, header: signature })) {
      throw new ApiError(401, "invalid_signature", "The X-Hub-Signature-256 header does not match the body signed with the app secret.");
    }
    await applyNumberQualityUpdate(ctx, { accountId: integration.accountId, update });
  }
}

/** A parsed inbound message (without media) as the inbound verb takes it. */
function inboundOf(message: InboundMessage): InboundInput {
  return {
    networkMessageId: message.networkMessageId,
    from: message.from,
    ...(message.phone ? { phone: message.phone } : {}),
    ...(message.userId ? { userId: message.userId } : {}),
    ...(message.username ? { username: message.username } : {}),
    ...(message.name ? { name: message.name } : {}),
    type: message.type,
    ...(message.text !== undefined ? { text: message.text } : {}),
    ...(message.content ? { content: message.content as MessageKindContent } : {}),
    ...(message.context ? { context: { networkMessageId: message.context.networkMessageId } } : {}),
    ...(message.reaction ? { reaction: { target: { networkMessageId: message.reaction.networkMessageId }, emoji: message.reaction.emoji } } : {}),
    sentAt: message.timestamp,
  };
}

/**
 * Downloads a customer's media from the network and stores the message (job
 * `message.fetch-media`). Temporary failures retry; a permanent one stores the message
 * without its media, with `error` saying why, so the conversation still shows it arrived.
 */
async function fetchInboundMedia(ctx: SystemContext, { accountId, message }: z.output<typeof inboundMediaJob>, { attempt = 1 }: { attempt?: number } = {}) {
  const db = ctx.db;
  if (await findIdByNetworkId(db, { accountId, networkMessageId: message.networkMessageId })) return;

  const base = {
    networkMessageId: message.networkMessageId,
    from: message.from,
    phone: message.phone,
    userId: message.userId,
    username: message.username,
    name: message.name,
    type: message.type,
    ...(message.context ? { context: message.context } : {}),
    ...(message.sentAt ? { sentAt: new Date(message.sentAt) } : {}),
  };
  const keepWithout = (error: { code: string; message: string }) => receiveInboundMessage(ctx, { accountId, inbound: { ...base, error } }).then(() => undefined);

  const integration = await loadNumberIntegration(db, accountId);
  const { accessToken } = secretsOf(integration);
  if (integration.provider !== "cloud" || !accessToken) {
    return keepWithout({ code: "media_unavailable", message: "The media could not be fetched: the cloud number is no longer configured." });
  }
  try {
    const file = await downloadCloudMedia({
      apiBaseUrl: integration.apiBaseUrl ?? defaultApiBaseUrl(),
      accessToken,
      networkMediaId: message.media.networkMediaId,
      urlPolicy: networkUrlPolicy(),
      maxBytes: MAX_INBOUND_MEDIA_BYTES,
    });
    await receiveInboundMessage(ctx, {
      accountId,
      inbound: {
        ...base,
        media: {
          mimeType: normalizeMimeType(message.media.mimeType || file.mimeType),
          bytes: file.bytes,
          ...(message.media.filename ? { filename: message.media.filename } : {}),
          ...(message.media.caption ? { caption: message.media.caption } : {}),
        },
      },
    });
  } catch (error) {
    if (!(error instanceof NetworkRequestError)) throw error;
    if (error.retryable && attempt < MAX_MEDIA_FETCH_ATTEMPTS) {
      const delay = MEDIA_RETRY_DELAYS_MS[Math.min(attempt, MEDIA_RETRY_DELAYS_MS.length) - 1];
      return { retryAt: new Date(Date.now() + delay), error: `${error.code}: ${error.message}` };
    }
    return keepWithout({ code: error.code, message: `The media could not be fetched: ${error.message}` });
  }
}

export const fetchMediaJob = defineJob({ kind: "message.fetch-media", schema: inboundMediaJob, handler: (payload, job) => fetchInboundMedia(job.system, payload, job) });

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "message.fetch-media": PayloadOf<typeof fetchMediaJob>;
  }
}
