import { actorOf, recordAudit } from "@/lib/audit/record-audit";
import type { NumberIntegration } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/platform/env";
import { ConflictError, invalidField, isUniqueViolation, ValidationError } from "@/lib/platform/errors";
import { checkWebhookUrl } from "@/lib/platform/url-policy";
import { encryptSecret } from "@/lib/platform/crypto/seal";
import type { NumberConfigInput, NumberConfigOutput, NumberTestOutput } from "./schemas";
import { adapterFor, DEFAULT_API_BASE_URL, defaultApiBaseUrl, loadNumberIntegration, networkUrlPolicy } from "./integration";
import { cloudNumberTakenElsewhere, findNumberIntegration, updateNumberIntegration } from "./store";

export { type NumberConfigInput, numberConfigInput, type NumberConfigOutput, type NumberTestOutput } from "./schemas";

/**
 * Checks a given api_base_url against the webhook URL policy before it is saved, so the
 * access token is never sent to an internal address; a refusal is a 400 naming the field.
 * The built-in default needs no check.
 */
async function approvedApiBaseUrl(url: string | null | undefined): Promise<void> {
  if (!url || url === DEFAULT_API_BASE_URL || url === defaultApiBaseUrl()) return;
  const check = await checkWebhookUrl({ url, allowInsecure: networkUrlPolicy().allowInsecure, subject: "The API base URL" });
  if (!check.ok) throw invalidField("api_base_url", check.reason);
}

function webhookCallbackUrl(): string {
  return new URL("/api/network/webhook", getEnv().APP_URL).toString();
}

/** The public shape: secrets are reported as set or not, never returned. */
export function presentNumberConfig(row: NumberIntegration): NumberConfigOutput {
  return {
    provider: row.provider,
    phone_number: row.phoneNumber,
    phone_number_id: row.phoneNumberId,
    business_account_id: row.businessAccountId,
    access_token_set: Boolean(row.accessTokenEnc),
    app_secret_set: Boolean(row.appSecretEnc),
    verify_token: row.verifyToken,
    api_base_url: row.apiBaseUrl ?? defaultApiBaseUrl(),
    coexistence: row.coexistence,
    status: row.status,
    status_reason: row.statusReason,
    webhook_url: webhookCallbackUrl(),
    quality_rating: row.qualityRating,
    messaging_limit_tier: row.messagingLimitTier,
    health_updated_at: row.healthUpdatedAt ? row.healthUpdatedAt.toISOString() : null,
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function getNumberConfig({ ctx }: { ctx: ServiceContext }): Promise<NumberConfigOutput> {
  return presentNumberConfig(await loadNumberIntegration(ctx.db, ctx.accountId));
}

/** Replaces the number integration. Cloud needs every field the network requires, each missing one named. */
export async function updateNumberConfig({ ctx, input }: { ctx: ServiceContext; input: NumberConfigInput }): Promise<NumberConfigOutput> {
  await approvedApiBaseUrl(input.api_base_url);
  try {
    return await saveNumberConfig(ctx, input);
  } catch (error) {
    // Two accounts saving the same phone_number_id at once: the unique index decides.
    if (isUniqueViolation(error)) throw new ConflictError("This phone_number_id is already connected to another account.");
    throw error;
  }
}

async function saveNumberConfig(ctx: ServiceContext, input: NumberConfigInput): Promise<NumberConfigOutput> {
  return ctx.db.transaction(async (tx) => {
    const current = await loadNumberIntegration(tx, ctx.accountId);
    const locked = await findNumberIntegration(tx, ctx.accountId, { forUpdate: true });
    const existing = locked ?? current;

    const keepOrSet = (given: string | null | undefined, stored: string | null, field: string) =>
      given === undefined ? stored : given === null ? null : encryptSecret({ plaintext: given, accountId: ctx.accountId, field });
    const accessTokenEnc = keepOrSet(input.access_token, existing.accessTokenEnc, "access_token");
    const appSecretEnc = keepOrSet(input.app_secret, existing.appSecretEnc, "app_secret");

    if (input.provider === "cloud") {
      const missing = [
        ["phone_number", input.phone_number],
        ["phone_number_id", input.phone_number_id],
        ["business_account_id", input.business_account_id],
        ["access_token", accessTokenEnc],
        ["app_secret", appSecretEnc],
        ["verify_token", input.verify_token],
      ]
        .filter(([, value]) => !value)
        .map(([path]) => ({ path: path as string, message: "is required for the cloud provider" }));
      if (missing.length) {
        throw new ValidationError(missing, `${missing.map((m) => m.path).join(", ")}: required for the cloud provider`);
      }
      if (await cloudNumberTakenElsewhere(tx, { accountId: ctx.accountId, phoneNumberId: input.phone_number_id! })) throw new ConflictError("This phone_number_id is already connected to another account.");
    }

    const updated = await updateNumberIntegration(tx, ctx.accountId, {
      provider: input.provider,
      phoneNumber: input.phone_number ?? null,
      phoneNumberId: input.phone_number_id ?? null,
      businessAccountId: input.business_account_id ?? null,
      accessTokenEnc,
      appSecretEnc,
      verifyToken: input.verify_token ?? null,
      apiBaseUrl: input.api_base_url ?? null,
      coexistence: input.coexistence,
      // A cloud number is "pending" until a connection test reaches the network.
      status: input.provider === "sandbox" ? "sandbox" : "pending",
      statusReason: null,
      updatedAt: new Date(),
    });
    await recordAudit(tx, { accountId: ctx.accountId, actor: actorOf(ctx), action: "number.updated", target: { type: "account", id: ctx.accountId } });
    return presentNumberConfig(updated);
  });
}

/** Asks the network whether the saved settings work, and records the answer as the number's status. */
export async function testNumberConnection({ ctx }: { ctx: ServiceContext }): Promise<NumberTestOutput> {
  const row = await loadNumberIntegration(ctx.db, ctx.accountId);
  const built = adapterFor(row);
  const result = built.ok ? await built.adapter.testConnection() : { ok: false, message: built.message };
  const status = row.provider === "sandbox" ? "sandbox" : result.ok ? "connected" : "error";
  const updated = await updateNumberIntegration(ctx.db, ctx.accountId, { status, statusReason: result.ok ? null : result.message.slice(0, 500), updatedAt: new Date() });
  return { ok: result.ok, message: result.message, status: updated.status };
}
