/**
 * The one reader of the network's webhook notifications. A notification is an envelope
 * (`object`, `entry[]`, each with `changes[]`); each change names its `field`, and its `value`
 * has that field's shape. Items the product cannot use (other fields, malformed entries) are
 * caught into null and skipped, so one odd item never makes the network redeliver a whole
 * batch; every message kind is kept (kinds.ts), unknown ones as `unsupported`.
 */
import { z } from "zod";
import type { NetworkNotification } from "@/lib/network/types";
import { parseHistoryChange, parseStateSyncChange } from "./coexistence";
import { parseEchoesChange } from "./echoes";
import { parseMessagesChange } from "./messages";
import { parseQualityChange } from "./quality";
import { parseTemplateStatusChange } from "./template-status";

const envelopeSchema = z.looseObject({
  object: z.string(),
  entry: z.array(
    z
      .looseObject({
        id: z.string().optional(),
        changes: z
          .array(
            z
              .looseObject({ field: z.string(), value: z.unknown() })
              .nullable()
              .catch(null),
          )
          .default([]),
      })
      .nullable()
      .catch(null),
  ),
});

/** Everything a notification reports. Throws a ZodError only when the payload is not a webhook envelope at all. */
export function parseNotification(payload: unknown): NetworkNotification {
  const envelope = envelopeSchema.parse(payload);
  const notification: NetworkNotification = { messages: [], statuses: [], revisions: [], echoes: [], coexistence: [], templateStatuses: [], qualityUpdates: [] };
  for (const entry of envelope.entry) {
    for (const change of entry?.changes ?? []) {
      switch (change?.field) {
        case "messages": {
          const parsed = parseMessagesChange(change.value);
          if (!parsed) break;
          notification.phoneNumberId ??= parsed.phoneNumberId;
          notification.messages.push(...parsed.messages);
          notification.statuses.push(...parsed.statuses);
          notification.revisions.push(...parsed.revisions);
          break;
        }
        case "smb_message_echoes":
          notification.echoes.push(...parseEchoesChange(change.value));
          break;
        case "history":
          notification.coexistence.push(...parseHistoryChange(change.value));
          break;
        case "smb_app_state_sync":
          notification.coexistence.push(...parseStateSyncChange(change.value));
          break;
        case "message_template_status_update": {
          const update = parseTemplateStatusChange(entry?.id, change.value);
          if (update) notification.templateStatuses.push(update);
          break;
        }
        case "phone_number_quality_update": {
          const update = parseQualityChange(entry?.id, change.value);
          if (update) notification.qualityUpdates.push(update);
          break;
        }
      }
    }
  }
  if (notification.phoneNumberId === undefined) delete notification.phoneNumberId;
  return notification;
}
