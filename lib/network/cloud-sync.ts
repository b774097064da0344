import { z } from "zod";
import { cloudWebhookSchema, parseCloudMessage } from "./cloud";
import type { InboundMessage } from "./types";

// Notifications besides messages and statuses: coexistence history and address-book sync
// (`history`, `smb_app_state_sync`) and template reviews (`message_template_status_update`).
// Anything malformed is skipped with a logged code.

export type HistoryMessage = {
  /** The customer's number (the thread). */
  thread: string;
  /** Whether the customer sent it (else the business did, from the app). */
  direction: "inbound" | "outbound";
  /** The network's status of a business message when it was synced. */
  status?: "sent" | "delivered" | "read" | "failed";
  message: InboundMessage;
};

export type CoexistenceSyncItem =
  | { kind: "history"; phoneNumberId?: string; message: HistoryMessage }
  | { kind: "contact"; phoneNumberId?: string; phone: string; name: string | null };

const historySchema = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string().optional() }).optional(),
  history: z.array(
    z.looseObject({
      threads: z.array(z.looseObject({ id: z.string().regex(/^\+?\d{8,15}$/), messages: z.array(z.unknown()) }).nullable().catch(null)).default([]),
    }),
  ),
});

const stateSyncSchema = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string().optional() }).optional(),
  state_sync: z.array(
    z
      .looseObject({
        type: z.string(),
        action: z.string().optional(),
        contact: z.looseObject({ full_name: z.string().optional(), first_name: z.string().optional(), phone_number: z.string().regex(/^\+?\d{8,15}$/) }).optional(),
      })
      .nullable()
      .catch(null),
  ),
});

const historyStatusSchema = z.looseObject({ history_context: z.looseObject({ status: z.string() }).optional() });

function skip(code: string) {
  console.warn(`network webhook: skipped an item (${code})`);
}

export function parseCoexistenceSync(payload: unknown): CoexistenceSyncItem[] {
  const webhook = cloudWebhookSchema.safeParse(payload);
  if (!webhook.success) return [];
  const items: CoexistenceSyncItem[] = [];
  for (const entry of webhook.data.entry) {
    for (const change of entry?.changes ?? []) {
      if (change?.field === "history") {
        const value = historySchema.safeParse(change.value);
        if (!value.success) {
          skip("malformed_history");
          continue;
        }
        const phoneNumberId = value.data.metadata?.phone_number_id;
        for (const chunk of value.data.history) {
          for (const thread of chunk.threads) {
            if (!thread) continue;
            const customer = thread.id.replace(/^\+/, "");
            for (const raw of thread.messages) {
              const message = parseCloudMessage(raw);
              if (!message) {
                skip("malformed_history_message");
                continue;
              }
              const direction = message.from === customer ? "inbound" : "outbound";
              const status = historyStatusSchema.safeParse(raw).data?.history_context?.status?.toLowerCase();
              items.push({
                kind: "history",
                ...(phoneNumberId ? { phoneNumberId } : {}),
                message: {
                  thread: customer,
                  direction,
                  ...(status === "sent" || status === "delivered" || status === "read" || status === "failed" ? { status } : {}),
                  message,
                },
              });
            }
          }
        }
      } else if (change?.field === "smb_app_state_sync") {
        const value = stateSyncSchema.safeParse(change.value);
        if (!value.success) {
          skip("malformed_state_sync");
          continue;
        }
        const phoneNumberId = value.data.metadata?.phone_number_id;
        for (const item of value.data.state_sync) {
          if (!item || item.type !== "contact" || !item.contact) continue;
          // A contact removed from the phone's address book is still a customer: only its name goes.
          const name = item.action === "remove" ? null : item.contact.full_name?.trim() || item.contact.first_name?.trim() || null;
          items.push({ kind: "contact", ...(phoneNumberId ? { phoneNumberId } : {}), phone: item.contact.phone_number.replace(/^\+/, ""), name });
        }
      }
    }
  }
  return items;
}

export type TemplateStatusUpdate = {
  businessAccountId: string;
  networkTemplateId?: string;
  name?: string;
  language?: string;
  event: string;
  reason?: string;
};

const templateUpdateSchema = z.looseObject({
  event: z.string().min(1),
  message_template_id: z.union([z.string(), z.number()]).optional(),
  message_template_name: z.string().optional(),
  message_template_language: z.string().optional(),
  reason: z.string().nullable().optional(),
});

export function parseTemplateStatusUpdates(payload: unknown): TemplateStatusUpdate[] {
  const webhook = cloudWebhookSchema.safeParse(payload);
  if (!webhook.success) return [];
  const updates: TemplateStatusUpdate[] = [];
  for (const entry of webhook.data.entry) {
    for (const change of entry?.changes ?? []) {
      if (change?.field !== "message_template_status_update") continue;
      const value = templateUpdateSchema.safeParse(change.value);
      if (!value.success || !entry?.id) {
        skip("malformed_template_status");
        continue;
      }
      updates.push({
        businessAccountId: entry.id,
        ...(value.data.message_template_id !== undefined ? { networkTemplateId: String(value.data.message_template_id) } : {}),
        ...(value.data.message_template_name ? { name: value.data.message_template_name } : {}),
        ...(value.data.message_template_language ? { language: value.data.message_template_language } : {}),
        event: value.data.event,
        ...(value.data.reason && value.data.reason !== "NONE" ? { reason: value.data.reason } : {}),
      });
    }
  }
  return updates;
}
