/**
 * The `smb_message_echoes` change: messages the business sent from the business app on a number
 * in coexistence, as the network echoes them. Anything unrecognised is skipped.
 */
import { z } from "zod";
import { type BusinessAppEcho, messageTypes, type MessageType } from "@/lib/network/types";

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

export function parseEchoesChange(value: unknown): BusinessAppEcho[] {
  const parsed = echoValueSchema.safeParse(value);
  if (!parsed.success) return [];
  const phoneNumberId = parsed.data.metadata?.phone_number_id;
  const echoes: BusinessAppEcho[] = [];
  for (const echo of parsed.data.message_echoes ?? []) {
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
  return echoes;
}
