/**
 * The coexistence changes of a number shared with the business app: its past messages
 * (`history`) and its address book (`smb_app_state_sync`). Anything malformed is skipped with a
 * logged code.
 */
import { z } from "zod";
import type { CoexistenceSyncItem } from "@/lib/network/types";
import { parseCloudMessage } from "./messages";

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

/** The past messages of a `history` change, each with its thread and direction. */
export function parseHistoryChange(value: unknown): CoexistenceSyncItem[] {
  const parsed = historySchema.safeParse(value);
  if (!parsed.success) {
    skip("malformed_history");
    return [];
  }
  const phoneNumberId = parsed.data.metadata?.phone_number_id;
  const items: CoexistenceSyncItem[] = [];
  for (const chunk of parsed.data.history) {
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
  return items;
}

/** The address-book contacts of a `smb_app_state_sync` change. */
export function parseStateSyncChange(value: unknown): CoexistenceSyncItem[] {
  const parsed = stateSyncSchema.safeParse(value);
  if (!parsed.success) {
    skip("malformed_state_sync");
    return [];
  }
  const phoneNumberId = parsed.data.metadata?.phone_number_id;
  const items: CoexistenceSyncItem[] = [];
  for (const item of parsed.data.state_sync) {
    if (!item || item.type !== "contact" || !item.contact) continue;
    // A contact removed from the phone's address book is still a customer: only its name goes.
    const name = item.action === "remove" ? null : item.contact.full_name?.trim() || item.contact.first_name?.trim() || null;
    items.push({ kind: "contact", ...(phoneNumberId ? { phoneNumberId } : {}), phone: item.contact.phone_number.replace(/^\+/, ""), name });
  }
  return items;
}
