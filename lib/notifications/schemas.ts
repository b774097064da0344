import { z } from "zod";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { paginationQuery } from "@/lib/platform/pagination";

const notificationIdPattern = /^ntf_[0-9a-z]{26}$/;

export const listNotificationsQuery = paginationQuery.extend({
  unread: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .optional()
    .meta({ description: "`true`: only unread notifications." }),
});

export const markNotificationsReadInput = z
  .union(
    [
      z.strictObject({
        ids: z
          .array(z.string().regex(notificationIdPattern, "must be a notification id (ntf_...)"), { error: "must be a list of notification ids" })
          .min(1, "must name at least one notification")
          .max(100, "must name at most 100 notifications"),
      }),
      z.strictObject({ all: z.literal(true, { error: "must be true" }) }),
    ],
    { error: "send {ids: [...]} or {all: true}" },
  )
  .meta({ id: "MarkNotificationsRead", description: "`{ids}` marks those (ids of other users are ignored), `{all: true}` marks every one of yours." });
export type MarkNotificationsReadInput = z.infer<typeof markNotificationsReadInput>;

export const notificationOutput = z
  .strictObject({
    id: prefixedId("notification"),
    type: z.enum(["mention", "number_health", "sla_warning", "sla_breached"]).meta({
      description:
        "`mention`: a teammate mentioned you in a note; `number_health` (admins): the number's quality rating or messaging limit dropped (`text` says how; see Settings → Number); `sla_warning` / `sla_breached`: a conversation assigned to you (or, unassigned, one of your team's, and any conversation for admins) is near or past its SLA target (`text` says which).",
    }),
    conversation_id: prefixedId("conversation").nullable().meta({ description: "The conversation; null for `number_health`." }),
    note_id: prefixedId("note").nullable(),
    actor: z.strictObject({ id: prefixedId("user"), name: z.string() }).nullable().meta({ description: "Who caused it." }),
    text: z.string().nullable().meta({ description: "The note's text (at most 200 characters), or what happened to the number.", example: "@Bruno can you check the stock?" }),
    contact: z
      .strictObject({ id: prefixedId("contact"), phone: z.string().nullable(), username: z.string().nullable(), name: z.string().nullable() })
      .nullable()
      .meta({ description: "The customer of the conversation; null for `number_health`." }),
    read_at: isoTimestamp().nullable(),
    created_at: isoTimestamp(),
  })
  .meta({ id: "Notification", description: "Something that needs your attention in the inbox." });
export type NotificationOutput = z.infer<typeof notificationOutput>;

export const notificationsReadOutput = z
  .strictObject({
    updated: z.int().min(0).meta({ description: "How many notifications changed from unread to read." }),
    unread_count: z.int().min(0).meta({ description: "Your unread notifications left." }),
  })
  .meta({ id: "NotificationsRead" });
