import type { Language } from "@/lib/platform/language/language";

/** The outside-hours reply of an account that kept the product's own words, in each language. */
export const outsideHoursDefaults: Record<Language, string> = {
  en: "Thanks for your message! We're closed right now and will answer as soon as we open.",
  es: "¡Gracias por tu mensaje! Ahora estamos cerrados y te responderemos en cuanto abramos.",
  pt: "Obrigado pela sua mensagem! Estamos fechados agora e responderemos assim que abrirmos.",
};

/** Whether a saved outside-hours message is empty or one of the product's own defaults. */
export function isDefaultOutsideHoursMessage(message: string): boolean {
  const trimmed = message.trim();
  return trimmed === "" || Object.values(outsideHoursDefaults).includes(trimmed);
}
