import type { Webhook } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/seal";

// Marks a sealed value, so a secret stored in clear before sealing (or chosen to look like a
// sealed value) is never mistaken for one.
const SEALED = "sealed:";
const fieldOf = (webhookId: string) => `webhook_secret:${webhookId}`;

/**
 * A webhook's signing secret as stored: AES-256-GCM with a key derived from AUTH_SECRET, the
 * account and the webhook bound as associated data, like the number's secrets. A database
 * dump alone does not let anyone forge deliveries.
 */
export function sealWebhookSecret({ secret, accountId, webhookId }: { secret: string; accountId: string; webhookId: string }): string {
  return SEALED + encryptSecret({ plaintext: secret, accountId, field: fieldOf(webhookId) });
}

/** The secret in clear, or null when it cannot be read (AUTH_SECRET changed since it was stored). */
export function openWebhookSecret(row: Pick<Webhook, "id" | "accountId" | "secret">): string | null {
  if (!row.secret.startsWith(SEALED)) return row.secret;
  return decryptSecret({ stored: row.secret.slice(SEALED.length), accountId: row.accountId, field: fieldOf(row.id) });
}
