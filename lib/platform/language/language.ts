/** The languages the smart features speak. */
export const languages = ["en", "es", "pt"] as const;
export type Language = (typeof languages)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}

/** Lower-case, accent-free words: "¿Qué horário?" → "que horario". */
export function normalizeForMatching(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

// Very common chat words. A trigram model alone confuses short Spanish and Portuguese messages
// ("a que hora abren?"), and these words settle most of them.
const markerWords: Record<Language, Set<string>> = {
  en: new Set(
    "the you u your ur what whats when do does are r is open hours time hi hello thanks thank please pls my order and to of it can will how this that we have store shop today tomorrow yes no hey ship shipping delivery deliver need want where why much price".split(" "),
  ),
  es: new Set(
    "ustedes usted hola gracias hoy manana estan cierran cierra abren atienden tienda cual cuales donde cuando buenos buenas el los las del y mi muy pero tengo tiene hay quiero es son una con hasta abiertos abierto abierta abiertas local domingos sabados hacen envios envio necesito cuanto cuesta precio pedido puedo quisiera porque pues vale dia senor senora ahora todavia xq porfa perdon anda ayer nadie estoy vos podes che dale llamada contestan llego".split(" "),
  ),
  pt: new Set(
    "voces voce vcs vc nao obrigado obrigada hoje amanha estao funcionamento atendimento loja qual quais ate tem oi ola bom boa meu minha muito fecha fecham abrem funciona funcionam uma um com pra sao ja tambem onde quando aberto aberta abertos abertas atendem fazem entrega entregas preciso quanto custa preco pedido posso gostaria porque entao dia senhor senhora agora ainda tudo bem tchau obg vlw blz ontem estou ta pra ninguem ligacao chegou".split(" "),
  ),
};

/** Marker-word evidence per language (with letters only one of the two Iberian languages uses). */
export function scoreLanguageMarkers(text: string): Record<Language, number> {
  const scores: Record<Language, number> = { en: 0, es: 0, pt: 0 };
  for (const word of normalizeForMatching(text).split(" ")) {
    for (const language of languages) if (markerWords[language].has(word)) scores[language] += 1;
  }
  const lower = text.toLowerCase();
  if (/[ñ¿¡]/.test(lower)) scores.es += 2;
  if (/[ãõç]|ê|ô/.test(lower)) scores.pt += 2;
  if (/\bhorários?\b/u.test(lower) || /\bvocês\b/u.test(lower)) scores.pt += 2;
  // Unaccented "horario" is the Spanish spelling, but Portuguese writers often skip accents: a light hint only.
  if (/\bhorarios?\b/.test(lower)) scores.es += 0.5;
  return scores;
}

/** PostgreSQL text-search configuration of each language. */
export const textSearchConfig: Record<Language, "english" | "spanish" | "portuguese"> = {
  en: "english",
  es: "spanish",
  pt: "portuguese",
};
