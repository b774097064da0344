import { z } from "zod";
import { messageTypes, type MessageType } from "@/lib/messages/schemas";
import { cloudWebhookSchema } from "./cloud";

/**
 * A message the business sent from the business app on a number in coexistence, as the
 * network echoes it (`smb_message_echoes`): it belongs in the inbox so agents see the whole
 * conversation, including what was answered from a phone.
 */
export type BusinessAppEcho = {
  phoneNumberId?: string;
  networkMessageId: string;
  to: string;
  type: MessageType;
  text?: string;
  caption?: string;
  filename?: string;
  timestamp?: Date;
};

const echoMedia = z.looseObject({ caption: z.string().optional(), filename: z.string().optional() });
const echoSchema = z.looseObject({
  id: z.string().min(1),
  to: z.string().regex(/^\+?\d{8,15}$/),
  timestamp: z.string().regex(/^\d{1,12}$/).optional(),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  image: echoMedia.optional(),
  document: echoMedia.optional(),
  audio: echoMedia.optional(),
  video: echoMedia.optional(),
});
const echoValueSchema = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string().optional() }).optional(),
  message_echoes: z.array(echoSchema.nullable().catch(null)).optional().catch(undefined),
});

/** The business-app echoes of a network notification; anything unrecognised is skipped. */
export function parseBusinessAppEchoes(payload: unknown): BusinessAppEcho[] {
  const webhook = cloudWebhookSchema.safeParse(payload);
  if (!webhook.success) return [];
  const echoes: BusinessAppEcho[] = [];
  for (const entry of webhook.data.entry) {
    for (const change of entry?.changes ?? []) {
      if (!change || change.field !== "smb_message_echoes") continue;
      const value = echoValueSchema.safeParse(change.value);
      if (!value.success) continue;
      const phoneNumberId = value.data.metadata?.phone_number_id;
      for (const echo of value.data.message_echoes ?? []) {
        if (!echo || !(messageTypes as readonly string[]).includes(echo.type)) continue;
        const type = echo.type as MessageType;
        if (type === "text" && !echo.text?.body) continue;
        const media = type === "text" ? undefined : echo[type];
        echoes.push({
          ...(phoneNumberId ? { phoneNumberId } : {}),
          networkMessageId: echo.id,
          to: echo.to.replace(/^\+/, ""),
          type,
          ...(type === "text" ? { text: echo.text!.body } : {}),
          ...(media?.caption ? { caption: media.caption } : {}),
          ...(media?.filename ? { filename: media.filename } : {}),
          ...(echo.timestamp ? { timestamp: new Date(Number(echo.timestamp) * 1000) } : {}),
        });
      }
    }
  }
  return echoes;
}
