import { z } from "zod";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

const base64url = (what: string, min: number, max: number) =>
  z
    .string({ error: `must be the ${what} as base64url` })
    .regex(/^[A-Za-z0-9_-]+=*$/, `must be the ${what} as base64url`)
    .min(min, `must be the ${what} as base64url`)
    .max(max, `must be the ${what} as base64url`);

const endpoint = z
  .string({ error: "must be the push service URL the browser gave" })
  .min(1, "must be the push service URL the browser gave")
  .max(2048, "must be at most 2048 characters")
  .meta({ description: "The push service URL of this browser (`PushSubscription.endpoint`).", example: "https://fcm.googleapis.com/fcm/send/c1Kx…" });

/** What `PushSubscription.toJSON()` gives in the browser, as is. */
export const createPushSubscriptionInput = z
  .object({
    endpoint,
    expirationTime: z.number().nullable().optional().meta({ description: "Ignored: a subscription lasts until its push service answers 404 or 410." }),
    keys: z.strictObject(
      {
        // An uncompressed P-256 point (65 bytes: 87 characters unpadded) and a 16-byte secret.
        p256dh: base64url("browser's P-256 public key", 86, 88),
        auth: base64url("16-byte auth secret", 22, 24),
      },
      { error: "must hold p256dh and auth" },
    ),
  })
  .meta({ id: "CreatePushSubscription", description: "The browser's `PushSubscription.toJSON()`." });
export type CreatePushSubscriptionInput = z.infer<typeof createPushSubscriptionInput>;

export const deletePushSubscriptionInput = z.strictObject({ endpoint }).meta({ id: "DeletePushSubscription" });

export const pushSubscriptionOutput = z
  .strictObject({
    id: prefixedId("pushSubscription"),
    endpoint: z.string(),
    created_at: isoTimestamp(),
  })
  .meta({ id: "PushSubscription", description: "A device of yours that Chorus pushes notifications to." });
export type PushSubscriptionOutput = z.infer<typeof pushSubscriptionOutput>;

const clock = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time of day as HH:MM (24 hours)")
  .nullable()
  .meta({ example: "22:00" });

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** One shape for the settings form and its server action. */
export const notificationPreferencesInput = z
  .strictObject({
    new_messages: z.boolean().meta({ description: "A customer writes in a conversation assigned to you or to no one." }),
    mentions: z.boolean().meta({ description: "A teammate mentions you in a note." }),
    assignments: z.boolean().meta({ description: "A conversation is assigned to you by someone else." }),
    sla_warnings: z.boolean().meta({ description: "A conversation of yours (or, unassigned, of your team or, for admins, of the account) is about to miss or has missed its SLA target." }),
    quiet_start: clock.meta({ description: "No pushes from this time…" }),
    quiet_end: clock.meta({ description: "…until this time (may cross midnight). Both or neither." }),
    time_zone: z.string().max(64).refine(isTimeZone, "must be an IANA time zone such as Europe/Madrid"),
  })
  .refine((value) => (value.quiet_start === null) === (value.quiet_end === null), { message: "set both ends of the quiet hours or neither", path: ["quiet_end"] })
  .meta({ id: "NotificationPreferences" });
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesInput>;

export const defaultPreferences: NotificationPreferencesInput = {
  new_messages: true,
  mentions: true,
  assignments: true,
  sla_warnings: true,
  quiet_start: null,
  quiet_end: null,
  time_zone: "UTC",
};

/** What a push carries to the service worker (it shows `title` and `body`; a tap opens `url`). */
export type PushPayload = { title: string; body: string; url: string; tag: string; type: PushReason };
export type PushReason = "new_message" | "mention" | "assignment" | "sla_warning" | "sla_breached";
