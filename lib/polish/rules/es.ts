// Spanish: chat spellings, language markers, filler phrases, question forms and starts, courtesy
// phrases and the spelling fixes the rules engine applies.
import type { CourtesyPhrases } from "./courtesy";

export const spanishAbbreviations: Record<string, string> = {
  q: "que",
  k: "que",
  xq: "porque",
  pq: "porque",
  xk: "porque",
  pk: "porque",
  porq: "porque",
  tb: "también",
  tmb: "también",
  tbn: "también",
  tmbn: "también",
  tambn: "también",
  "x favor": "por favor",
  xfa: "por favor",
  xfavor: "por favor",
  xfis: "por favor",
  porfa: "por favor",
  porfis: "por favor",
  pls: "por favor",
  plz: "por favor",
  dnd: "donde",
  msj: "mensaje",
  msje: "mensaje",
  msjs: "mensajes",
  grax: "gracias",
  grx: "gracias",
  grcs: "gracias",
  bn: "bien",
  ntp: "no te preocupes",
  cdo: "cuando",
  xa: "para",
  ud: "usted",
  uds: "ustedes",
  mñn: "mañana",
  mñna: "mañana",
  salu2: "saludos",
  dsps: "después",
  dps: "después",
  hrs: "horas",
  vdd: "verdad",
  aki: "aquí",
  nd: "nada",
  // Words with one spelling only, written without their accent.
  todavia: "todavía",
  numero: "número",
  envio: "envío",
  envios: "envíos",
  direccion: "dirección",
  telefono: "teléfono",
  dias: "días",
  rapida: "rápida",
  rapido: "rápido",
  atencion: "atención",
  informacion: "información",
  tambien: "también",
  despues: "después",
  aqui: "aquí",
  ademas: "además",
  facil: "fácil",
  ultimo: "último",
  ultima: "última",
  proximo: "próximo",
  proxima: "próxima",
  pagina: "página",
  codigo: "código",
  credito: "crédito",
  debito: "débito",
  sabado: "sábado",
  miercoles: "miércoles",
  perdon: "perdón",
  orquidea: "orquídea",
  pedi: "pedí",
};

// At the start of a question these words take the accent: "¿q pasó?" → "¿Qué pasó?", "¿xq?" → "¿Por qué?".
export const spanishQuestionForms: Record<string, string> = {
  q: "qué",
  k: "qué",
  xq: "por qué",
  pq: "por qué",
  xk: "por qué",
  pk: "por qué",
  porq: "por qué",
  dnd: "dónde",
  cdo: "cuándo",
};

// Question words written without their accent, restored at the start of a Spanish question:
// "hola, que hora abren?" → "Hola, ¿qué hora abren?".
export const spanishInterrogatives: Record<string, string> = {
  que: "qué",
  como: "cómo",
  cuando: "cuándo",
  donde: "dónde",
  adonde: "adónde",
  cual: "cuál",
  cuales: "cuáles",
  cuanto: "cuánto",
  cuanta: "cuánta",
  cuantos: "cuántos",
  cuantas: "cuántas",
  quien: "quién",
  quienes: "quiénes",
  "por que": "por qué",
};

export const spanishMarkers = new Set(
  "que q k de el la los las por para con en es un una su sus tu tus mi mis hola gracias pedido usted ustedes favor porfa porfis xfa xfavor xfis y ya muy esta está estamos están tenemos tiene puede puedes pero porque xq pq xk pk porq tb tmb tbn tmbn tambn también msj msje msjs mensaje mensajes del al lo le te se nos hoy mañana cuando cuándo donde dónde dnd cómo como qué envío saludos buenos buenas días si sí bien bn grax grx grcs ntp preocupes cdo xa ud uds mñn mñna salu2 dsps dps después hrs horas vdd verdad aki aquí nd nada hay fue llega llegó semana pls plz".split(
    " ",
  ),
);

export const spanishFillers: Array<[string, string]> = [
  [
    "s[oó]lo (?:quer[ií]a|quiero) (?:decirte|decirle|avisarte|avisarle|comentarte|comentarle|informarte|informarle|contarte)(?: que)?",
    "",
  ],
  ["quer[ií]a (?:decirte|decirle|avisarte|avisarle|comentarte|comentarle|informarte|informarle|contarte) que", ""],
  ["(?:te|le|les) (?:comento|cuento|informo|comentamos|informamos) que", ""],
  ["(?:me|nos) gustar[ií]a (?:informarte|informarle|comentarte|comentarle|decirte|decirle) que", ""],
  ["cabe (?:mencionar|destacar|señalar|aclarar) que", ""],
  ["(?:por favor,? )?(?:ten|tenga|tengan) en cuenta que", ""],
  ["la verdad(?: es que)?", ""],
  ["(?:yo )?creo que", ""],
  ["en realidad", ""],
  ["b[aá]sicamente|realmente|simplemente|sinceramente|honestamente|literalmente", ""],
  ["con el fin de|a fin de", "para"],
  ["debido a que", "porque"],
  ["en este momento|en estos momentos", "ahora"],
  ["a d[ií]a de hoy|el d[ií]a de hoy", "hoy"],
];

export const spanishQuestionStart = /^(?:qué|cómo|cuándo|dónde|cuál|cuáles|quién|quiénes|cuánto|cuánta|cuántos|cuántas|por qué)(?![\p{L}])/iu;
export const spanishUnaccentedQuestionStart = /^(?:a qu[eé] hora|hasta qu[eé] hora|desde qu[eé] hora|cu[aá]nt[oa]s?|cu[aá]l(?:es)?|d[oó]nde|qui[eé]n(?:es)?|cada cu[aá]nto)(?![\p{L}])/iu;

/** The phrases `explanatory` adds, with "tú"; `spanishFormalCourtesy` with "usted". */
export const spanishCourtesy: CourtesyPhrases = {
  greeting: "Hola",
  thanks: (name) => (name ? `gracias por contactar con ${name}${/[.!?]$/.test(name) ? "" : "."}` : "gracias por contactarnos."),
  help: "Si tienes cualquier otra pregunta, estaremos encantados de ayudarte.",
  signature: (name) => `— Equipo de ${name}`,
};

export const spanishFormalCourtesy: CourtesyPhrases = {
  greeting: "Hola",
  thanks: (name) => (name ? `gracias por contactar con ${name}${/[.!?]$/.test(name) ? "" : "."}` : "gracias por contactarnos."),
  help: "Si tiene cualquier otra pregunta, estaremos encantados de ayudarle.",
  signature: (name) => `— Equipo de ${name}`,
};

// Words of one spelling written without their accent, and words a dictionary accepts without it
// but that chat drafts almost always mean with it.
export const spanishWordFixes: Record<string, string> = { estan: "están", mas: "más", dia: "día", util: "útil", utiles: "útiles", habil: "hábil", habiles: "hábiles", tambien: "también" };

// "está" and not "esta" ("this") when what follows can only follow the verb: a place, a state, a
// participle of the list or a gerund ("esta en camino", "esta listo", "esta llegando").
export const spanishEstaFollowers =
  "en|bien|mal|listo|lista|listos|listas|disponible|disponibles|agotado|agotada|agotados|agotadas|cerrado|cerrada|abierto|abierta|pagado|pagada|confirmado|confirmada|enviado|enviada|incluido|incluida|roto|rota|dañado|dañada|muy|aquí|aqui|ahí|ahi|allí|alli|todavía|todavia|pendiente|perfecto|perfecta|activo|activa|preparado|preparada|reservado|reservada|seguro|segura|seguros|seguras|adjunto|adjunta|completo|completa|incompleto|incompleta|equivocado|equivocada|correcto|correcta|de camino|a punto|\\p{L}+(?:ando|iendo|yendo)";

/** The accented letters a misspelled word may have lost. */
export const spanishAccentOptions: Record<string, string[]> = { a: ["á"], e: ["é"], i: ["í"], o: ["ó"], u: ["ú", "ü"], n: ["ñ"] };
