import { auditChange } from "@/lib/audit/record-audit";
import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import { messageTemplates, type TemplateComponents } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { ApiError, ConflictError, invalidField, isUniqueViolation, NotFoundError } from "@/lib/platform/errors";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { createCloudTemplate, deleteCloudTemplate, uploadTemplateMedia } from "@/lib/network/cloud";
import { defaultApiBaseUrl, loadNumberIntegration, networkUrlPolicy, secretsOf } from "@/lib/network/integration";
import { validateMedia } from "@/lib/messages/media-rules";
import { storeMedia } from "@/lib/messages/store";
import { type CreateTemplateInput, headerMediaKinds, presentTemplate, storedButtons, type TemplateOutput } from "./schemas";
import { deleteTemplateRow, findTemplate, findTemplateByName, insertTemplate, selectTemplates, updateTemplateRow } from "./store";
export { prepareTemplateSend } from "./prepare-send";

/** How long the sandbox "reviews" a template before approving (or rejecting) it. */
const SANDBOX_REVIEW_MS = 2_000;

/** The account's cloud number as a template target, or a 409 when it is not fully configured. */
async function cloudTarget(executor: Executor, accountId: string) {
  const integration = await loadNumberIntegration(executor, accountId);
  if (integration.provider !== "cloud") return null;
  const { accessToken } = secretsOf(integration);
  if (!accessToken || !integration.businessAccountId) {
    throw new ConflictError("The cloud number needs its business_account_id and access token before templates can be managed.");
  }
  return { apiBaseUrl: integration.apiBaseUrl ?? defaultApiBaseUrl(), businessAccountId: integration.businessAccountId, accessToken, urlPolicy: networkUrlPolicy() };
}

const networkError = (message: string) => new ApiError(502, "network_error", `The network refused: ${message}`);

/** What is stored for validated components, and the header's decoded file (its id and handle are set once stored and uploaded). */
function componentsOf(input: CreateTemplateInput): { components: TemplateComponents; headerFile?: { bytes: Buffer; mimeType: string; filename?: string } } {
  const { header, body, footer, buttons } = input.components;
  const components: TemplateComponents = {
    body: { text: body.text, ...(body.examples ? { examples: body.examples } : {}) },
    ...(footer ? { footer } : {}),
    ...(buttons ? { buttons: storedButtons(buttons) } : {}),
  };
  if (!header) return { components };
  if (header.format === "TEXT") {
    components.header = { format: "TEXT", text: header.text! };
    return { components };
  }
  if (header.format === "LOCATION") {
    components.header = { format: "LOCATION", ...(header.location ? { location: header.location } : {}) };
    return { components };
  }
  const checked = validateMedia({ type: headerMediaKinds[header.format], media: header.media! });
  if (!checked.ok) throw invalidField("components.header.media", checked.issues[0]?.message ?? "is not a valid file");
  const filename = header.media!.filename;
  components.header = { format: header.format, media: { id: "", mime_type: checked.mimeType, ...(filename ? { filename } : {}), size: checked.bytes.length } };
  return { components, headerFile: { bytes: checked.bytes, mimeType: checked.mimeType, ...(filename ? { filename } : {}) } };
}

export async function listTemplates({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  return keysetPage(selectTemplates(ctx.db), {
    table: messageTemplates,
    accountId: ctx.accountId,
    order: "asc",
    limit,
    cursor,
    position: (t) => ({ t: t.createdAt, id: t.id }),
    present: presentTemplate,
  });
}

export async function getTemplate({ ctx, id }: { ctx: ServiceContext; id: string }): Promise<TemplateOutput> {
  const row = await findTemplate(ctx.db, { accountId: ctx.accountId, id });
  if (!row) throw new NotFoundError("Template");
  return presentTemplate(row);
}

/**
 * Submits a template for review: to the network (cloud: `POST /{business_account_id}/message_templates`,
 * its status then arrives by webhook) or to the sandbox, which approves it about 2 s later, or
 * rejects it when the body contains "REJECT". A name already used in that language is a 409.
 */
export async function createTemplate({ ctx, input }: { ctx: ServiceContext; input: CreateTemplateInput }): Promise<TemplateOutput> {
  const db = ctx.db;
  const taken = await findTemplateByName(db, { accountId: ctx.accountId, name: input.name, language: input.language });
  if (taken) throw new ConflictError(`A template named ${input.name} already exists in ${input.language}.`);

  const target = await cloudTarget(db, ctx.accountId);
  const { components, headerFile } = componentsOf(input);
  if (target && headerFile && components.header?.media) {
    // The network reviews a media header through the handle of a file uploaded to it.
    const uploaded = await uploadTemplateMedia(target, headerFile);
    if (!uploaded.ok) throw networkError(uploaded.failure.message);
    components.header.media.handle = uploaded.handle;
  }
  let networkTemplateId: string | null = null;
  let status: "PENDING" | "APPROVED" | "REJECTED" = "PENDING";
  if (target) {
    const created = await createCloudTemplate(target, { ...input, components });
    if (!created.ok) throw networkError(created.failure.message);
    networkTemplateId = created.networkTemplateId;
    if (created.status === "APPROVED" || created.status === "REJECTED") status = created.status;
  }
  const now = new Date();
  try {
    return await db.transaction(async (tx) => {
      if (headerFile && components.header?.media) {
        const stored = await storeMedia(tx, { accountId: ctx.accountId, file: headerFile, at: now });
        components.header.media.id = stored.id;
      }
      const row = await insertTemplate(tx, {
        id: newId("template", now),
        accountId: ctx.accountId,
        name: input.name,
        language: input.language,
        category: input.category,
        components,
        status,
        networkTemplateId,
        createdAt: now,
        updatedAt: now,
      });
      if (!target) {
        await enqueueJob(tx, { kind: "template.simulate-review", accountId: ctx.accountId, payload: { templateId: row.id }, runAt: new Date(now.getTime() + SANDBOX_REVIEW_MS) });
      }
      await auditChange(ctx, "template.created", { type: "template", id: row.id }, tx);
      return presentTemplate(row);
    });
  } catch (error) {
    // Two creations of the same name at once: the unique index lets one through.
    if (isUniqueViolation(error)) {
      throw new ConflictError(`A template named ${input.name} already exists in ${input.language}.`);
    }
    throw error;
  }
}

/** Deletes a template here and, for a cloud number, at the network (its failure is a 502 and nothing is deleted). */
export async function deleteTemplate({ ctx, id }: { ctx: ServiceContext; id: string }) {
  const db = ctx.db;
  const row = await findTemplate(db, { accountId: ctx.accountId, id });
  if (!row) throw new NotFoundError("Template");
  const target = await cloudTarget(db, ctx.accountId);
  if (target && row.networkTemplateId) {
    const deleted = await deleteCloudTemplate(target, { name: row.name, networkTemplateId: row.networkTemplateId });
    if (!deleted.ok) throw networkError(deleted.failure.message);
  }
  await db.transaction(async (tx) => {
    await deleteTemplateRow(tx, { accountId: ctx.accountId, id, headerMediaId: row.components.header?.media?.id });
    await auditChange(ctx, "template.deleted", { type: "template", id }, tx);
  });
}

/** Records a new status and emits `template.updated` (nothing when it did not change). */
export async function setTemplateStatus(
  ctx: SystemContext,
  { accountId, id, status, reason }: { accountId: string; id: string; status: "PENDING" | "APPROVED" | "REJECTED"; reason?: string | null },
) {
  const tx = ctx.db;
  const current = await findTemplate(tx, { accountId, id, lock: true });
  if (!current) return null;
  const rejectedReason = status === "REJECTED" ? (reason ?? "Rejected by the network.") : null;
  if (current.status === status && current.rejectedReason === rejectedReason) return null;
  const row = await updateTemplateRow(tx, { id, set: { status, rejectedReason, updatedAt: new Date() } });
  const output = presentTemplate(row);
  await recordEvent(ctx, { accountId, type: "template.updated", data: { template: output } });
  return output;
}
