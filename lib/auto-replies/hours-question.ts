import { detectMessageLanguage } from "@/lib/platform/language/detect";
import { type HoursLanguage, hoursLanguages } from "@/lib/profile/hours";
import { normalizeForMatching, scoreLanguageMarkers } from "@/lib/platform/language/language";

/**
 * Best guess between English, Spanish and Portuguese for a short message; `fallback` (English by
 * default) when nothing in the text hints at a language ("ok", "👍", a photo without caption).
 */
export function detectLanguage(text: string, fallback: HoursLanguage = "en"): HoursLanguage {
  return detectMessageLanguage(text) ?? fallback;
}

const subjectEn = String.raw`(?:you|u|ya|y all|you guys|u guys|you all|they|it|the (?:store|shop|office|restaurant|place|business|clinic|salon|bakery|pharmacy|showroom))`;
const notAnObject = String.raw`(?! (?:the|a|an|my|your|our|it|this|that|up)\b)`;
const weekdayEn = String.raw`(?:mon|tues|wednes|thurs|fri|satur|sun)days?`;
const weekdayEs = String.raw`(?:lunes|martes|miercoles|jueves|viernes|sabados?|domingos?)`;
const weekdayPt = String.raw`(?:segunda|terca|quarta|quinta|sexta|sabados?|domingos?)(?: feira)?`;

// Patterns run on lowercased, accent-free text with punctuation turned into spaces ("what's" → "what s").
const hoursQuestionPatterns: Record<HoursLanguage, RegExp[]> = {
  en: [
    /\b(?:opening|open|business|store|shop|office|working|operating|trading|operation) hours\b/,
    /\bhours of (?:operation|business)\b/,
    /\bwhat(?: s| are| r| is)? (?:your|ur|the) (?:(?:opening|business|store|shop|office) )?hours\b/,
    /^(?:(?:your|ur|the) )?(?:(?:opening|business|store) )?hours$/,
    new RegExp(String.raw`\b(?:what time|when) (?:(?:do|does|will|are|r|is|d) )?${subjectEn}(?: be)? (?:open|opens|opening|close|closes|closing)\b${notAnObject}`),
    new RegExp(String.raw`\b(?:are|r) (?:you|u|ya|y all)(?: guys| all)?(?: still| currently)? open\b(?! to\b)`),
    /\b(?:is|are) (?:the|your) (?:store|shop|office|restaurant|place|business|clinic|salon|stores|shops|offices) (?:still |currently )?open\b/,
    new RegExp(String.raw`\bdo (?:you|u)(?: guys)? (?:open|close)\b${notAnObject}`),
    /\bhow late (?:are|r|do|is) (?:you|u|ya|it|the \w+)\b/,
    /\b(?:until|till|til) what time\b/,
    /\b(?:opening|closing) times?\b/,
    new RegExp(String.raw`(?:^|\b(?:you|u|ya|guys|store|shop|office|restaurant|business|place) )(?:be )?open (?:today|tomorrow|tonight|now|this (?:weekend|${weekdayEn})|on (?:${weekdayEn}|weekends?|the weekend|holidays?))\b`),
  ],
  es: [
    /\bhorarios?\b/,
    /\bhoras? de (?:atencion|apertura|cierre|servicio)\b/,
    /\b(?:que|q|k) horas? (?:\w+ ){0,2}(?:abren|cierran|cierra|atienden|atiende|abriran|cerraran|abrira|cerrara)\b/,
    /\b(?:que|q|k) hora (?:\w+ ){0,2}abre\b/,
    /\b(?:hasta|desde|a partir de) (?:que|q|k) hora\b/,
    /\bcuando (?:\w+ ){0,2}(?:abren|cierran|abre|cierra|atienden|abriran)\b/,
    /\b(?:estan|estaran|siguen|estais) abiert[oa]s\b/,
    new RegExp(String.raw`\b(?:esta|sigue|estara) abiert[oa] (?:hoy|ahora|manana|todavia|el ${weekdayEs}|los ${weekdayEs})\b`),
    /\b(?:la tienda|el local|la oficina|el negocio|la sucursal) (?:esta|sigue|estara) abiert[oa]\b/,
    new RegExp(String.raw`\b(?:abren|atienden|trabajan|abre) (?:hoy|manana|el ${weekdayEs}|los ${weekdayEs}|los fines de semana|este fin de semana|en (?:feriados|festivos))\b`),
    /\b(?:que|q) dias (?:abren|atienden|trabajan|estan abiertos)\b/,
  ],
  pt: [
    /\bhorarios?\b/,
    /\b(?:horarios?|horas) de (?:funcionamento|atendimento|abertura)\b/,
    /\b(?:que|q) horas (?:\w+ ){0,2}(?:abre|abrem|fecha|fecham|funciona|funcionam|atende|atendem|abrira|abrirao|fechara|fecharao|comeca|comecam)\b/,
    /\b(?:ate|a partir de) (?:que|q) horas\b/,
    /\bquando (?:\w+ ){0,2}(?:abre|abrem|fecha|fecham|funciona|funcionam|atende|atendem|reabre|reabrem)\b/,
    /\b(?:voces|vcs|voce|vc) (?:\w+ )?(?:abrem|fecham|funcionam|atendem|abre|fecha|funciona|atende)\b/,
    /\b(?:estao|estarao|ficam) abert[oa]s\b/,
    new RegExp(String.raw`\besta abert[oa] (?:hoje|agora|amanha|no|aos|${weekdayPt})\b`),
    new RegExp(String.raw`\b(?:abrem|abre|funcionam|funciona|atendem|atende) (?:hoje|amanha|no (?:feriado|fim de semana|${weekdayPt})|nos (?:fins de semana|feriados)|aos (?:fins de semana|feriados|${weekdayPt})|de ${weekdayPt})\b`),
    /\b(?:que|quais) dias (?:voces )?(?:abrem|funcionam|atendem)\b/,
  ],
};

/**
 * The language of a message that asks about opening hours, or null when it does not. Phrasings
 * shared by Spanish and Portuguese ("horario") are settled by the rest of the message.
 */
export function detectHoursQuestion(text: string): HoursLanguage | null {
  const normalized = normalizeForMatching(text);
  if (!normalized) return null;
  const matched = hoursLanguages.filter((language) =>
    hoursQuestionPatterns[language].some((pattern) => pattern.test(normalized)),
  );
  if (matched.length === 0) return null;
  if (matched.length === 1) return matched[0];
  const detected = detectMessageLanguage(text);
  if (detected && matched.includes(detected)) return detected;
  const scores = scoreLanguageMarkers(text);
  return matched.reduce((best, language) => (scores[language] > scores[best] ? language : best));
}
