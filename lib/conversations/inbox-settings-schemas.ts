import { z } from "zod";

export const inboxSettingsInput = z
  .strictObject({
    auto_assign_on_reply: z.boolean({ error: "must be true or false" }).meta({
      description: "When true, the first reply by a person in an unassigned conversation assigns it to them.",
      example: true,
    }),
    send_read_receipts: z
      .boolean({ error: "must be true or false" })
      .optional()
      .meta({ description: "When true, opening a conversation with unread customer messages marks the newest read on the customer's phone (blue ticks). Unchanged when absent.", example: true }),
    send_typing_indicator: z
      .boolean({ error: "must be true or false" })
      .optional()
      .meta({ description: "When true, the customer sees \"typing…\" while an agent writes to them (at most once per 20 s per conversation). Unchanged when absent.", example: true }),
  })
  .meta({ id: "InboxSettingsInput" });
export type InboxSettingsInput = z.infer<typeof inboxSettingsInput>;

export const inboxSettingsOutput = z
  .strictObject({
    auto_assign_on_reply: z.boolean().meta({ description: "Assign an unassigned conversation to whoever replies first (default true)." }),
    send_read_receipts: z.boolean().meta({ description: "Mark the customer's messages read at the network when an agent opens the conversation (default true; never for a blocked contact)." }),
    send_typing_indicator: z.boolean().meta({ description: "Show the customer a typing indicator while an agent writes (default true; at most once per 20 s per conversation; never for a blocked contact)." }),
  })
  .meta({ id: "InboxSettings", description: "How the shared inbox behaves for the whole account." });
export type InboxSettingsOutput = z.infer<typeof inboxSettingsOutput>;
