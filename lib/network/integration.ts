import type { Executor } from "@/db";
import type { NumberIntegration } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import { NotFoundError } from "@/lib/platform/errors";
import { decryptSecret } from "@/lib/platform/crypto/seal";
import { createCloudAdapter, type UrlPolicy } from "./cloud";
import { sandboxAdapter } from "./sandbox";
import { findNumberIntegration, insertSandboxIntegration } from "./store";
import type { NetworkAdapter } from "./types";

// The account's stored number integration as the rest of the app uses it: the row, its secrets,
// the business number, and the adapter that carries its messages. Settings verbs (read, replace,
// test) live in number-config.ts.

export const DEFAULT_API_BASE_URL = "https://graph.facebook.com/v21.0";

/** The network's API when a number names none: NETWORK_API_BASE_URL, else the Graph API. */
export function defaultApiBaseUrl(): string {
  return getEnv().NETWORK_API_BASE_URL ?? DEFAULT_API_BASE_URL;
}

/** The business number of a sandbox that has none configured (digits, like every `from`/`to`). */
const SANDBOX_BUSINESS_NUMBER = "15550000000";

/** Outgoing calls to the network follow the webhook URL policy (and its development switch). */
export function networkUrlPolicy(): UrlPolicy {
  return { allowInsecure: getEnv().WEBHOOK_ALLOW_INSECURE_TARGETS };
}

/** The account's integration row; accounts created before it existed get the sandbox default. */
export async function loadNumberIntegration(executor: Executor, accountId: string): Promise<NumberIntegration> {
  const row = await findNumberIntegration(executor, accountId);
  if (row) return row;
  const created = await insertSandboxIntegration(executor, accountId);
  if (created) return created;
  const again = await findNumberIntegration(executor, accountId);
  if (!again) throw new NotFoundError("Account");
  return again;
}

export const secretsOf = (row: NumberIntegration) => ({
  accessToken: decryptSecret({ stored: row.accessTokenEnc, accountId: row.accountId, field: "access_token" }),
  appSecret: decryptSecret({ stored: row.appSecretEnc, accountId: row.accountId, field: "app_secret" }),
});

/** The business number as digits (the `from` of outbound and `to` of inbound messages). */
export function businessNumberOf(row: Pick<NumberIntegration, "phoneNumber">): string {
  return row.phoneNumber ? row.phoneNumber.replace(/\D/g, "") : SANDBOX_BUSINESS_NUMBER;
}

/** The adapter that carries this account's messages, or the reason it cannot be built. */
export function adapterFor(row: NumberIntegration): { ok: true; adapter: NetworkAdapter } | { ok: false; message: string } {
  if (row.provider === "sandbox") return { ok: true, adapter: sandboxAdapter };
  const { accessToken } = secretsOf(row);
  if (!row.phoneNumberId || !accessToken) {
    return { ok: false, message: "The cloud number is not fully configured (phone_number_id and access_token are needed)." };
  }
  return {
    ok: true,
    adapter: createCloudAdapter({
      apiBaseUrl: row.apiBaseUrl ?? defaultApiBaseUrl(),
      phoneNumberId: row.phoneNumberId,
      accessToken,
      urlPolicy: networkUrlPolicy(),
    }),
  };
}
