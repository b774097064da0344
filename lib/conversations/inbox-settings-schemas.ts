import { z } from "zod";

export const inboxSettingsInput = z
  .strictObject({
    auto_assign_on_reply: z.boolean({ error: "must be true or false" }).meta({
      description: "When true, the first reply by a person in an unassigned conversation assigns it to them.",
      example: true,
    }),
  })
  .meta({ id: "InboxSettingsInput" });
export type InboxSettingsInput = z.infer<typeof inboxSettingsInput>;

export const inboxSettingsOutput = z
  .strictObject({
    auto_assign_on_reply: z.boolean().meta({ description: "Assign an unassigned conversation to whoever replies first (default true)." }),
  })
  .meta({ id: "InboxSettings", description: "How the shared inbox behaves for the whole account." });
export type InboxSettingsOutput = z.infer<typeof inboxSettingsOutput>;
