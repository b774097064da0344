// Portuguese: chat spellings, language markers, filler phrases, question forms and starts,
// courtesy phrases and the spelling fixes the rules engine applies.
import type { CourtesyPhrases } from "./courtesy";

export const portugueseAbbreviations: Record<string, string> = {
  vc: "você",
  vcs: "vocês",
  voce: "você",
  voces: "vocês",
  q: "que",
  pq: "porque",
  tb: "também",
  tbm: "também",
  tambem: "também",
  obg: "obrigado",
  brigado: "obrigado",
  blz: "beleza",
  td: "tudo",
  hj: "hoje",
  msg: "mensagem",
  msgs: "mensagens",
  cmg: "comigo",
  ctz: "certeza",
  naum: "não",
  nao: "não",
  mt: "muito",
  mto: "muito",
  mta: "muita",
  qdo: "quando",
  qnd: "quando",
  pfv: "por favor",
  pf: "por favor",
  pls: "por favor",
  plz: "por favor",
  vlw: "valeu",
  abs: "abraços",
  att: "atenciosamente",
  entao: "então",
  amanha: "amanhã",
  agr: "agora",
  sdds: "saudades",
  dps: "depois",
  fds: "fim de semana",
  hrs: "horas",
  info: "informação",
  infos: "informações",
  // Words with one spelling only, written without their accent.
  ola: "olá",
  ate: "até",
  so: "só",
  ja: "já",
  ta: "tá",
  sao: "são",
  dao: "dão",
  ninguem: "ninguém",
  codigo: "código",
  cartao: "cartão",
  ligacao: "ligação",
  horario: "horário",
  horarios: "horários",
  duvida: "dúvida",
  duvidas: "dúvidas",
  preco: "preço",
  precos: "preços",
  rapida: "rápida",
  rapido: "rápido",
  orquidea: "orquídea",
  endereco: "endereço",
  informacao: "informação",
  numero: "número",
  ultimo: "último",
  proximo: "próximo",
  pagina: "página",
  sabado: "sábado",
};

// At the start of a question: "pq?" → "Por que?".
export const portugueseQuestionForms: Record<string, string> = {
  pq: "por que",
};

// Every abbreviation and its expansion count for the same language, so polishing never moves a
// message from one language to the other and a second pass sees what the first one saw.
export const portugueseMarkers = new Set(
  "você vocês vc vcs não nao obrigado obrigada obg também tbm hoje amanhã amanha tudo td bem beleza blz oi olá pra pro para com uma um meu minha seu sua está estão estamos temos tem pode podem porque pq quando onde como qual quais muito mt mto mensagem msg entrega pedido então entao já ja agora agr depois dps ainda aqui isso esse essa esta este nós gente vou vai ficou fico atenciosamente abraços abs valeu vlw".split(
    " ",
  ),
);

export const portugueseFillers: Array<[string, string]> = [
  ["s[oó] (?:queria|quero|gostaria de) (?:te |lhe )?(?:dizer|avisar|informar|falar|comentar)(?: que)?", ""],
  ["(?:queria|gostaria de) (?:te |lhe )?(?:avisar|informar|dizer|comentar) que", ""],
  ["(?:eu )?acho que", ""],
  ["na verdade", ""],
  ["(?:vale|cabe) (?:ressaltar|lembrar|destacar|mencionar) que", ""],
  ["basicamente|realmente|simplesmente|sinceramente|literalmente", ""],
  ["com o objetivo de|a fim de", "para"],
  ["devido ao fato de que", "porque"],
  ["neste momento|no momento", "agora"],
];

export const portugueseQuestionStart = /^(?:o que|que|qual|quais|quando|onde|aonde|como|quanto|quanta|quantos|quantas|quem|por que|por quê|será que|tem como|dá pra|da pra|posso|pode|podem|de quanto em quanto|vocês? \p{L}+(?:am|em|ão)|vocês? (?:tem|têm))(?![\p{L}])/iu;

/** The phrases `explanatory` adds: a greeting, thanks, an offer of help and a signature. */
export const portugueseCourtesy: CourtesyPhrases = {
  greeting: "Olá",
  thanks: (name) => (name ? `obrigado por entrar em contato com ${name}${/[.!?]$/.test(name) ? "" : "."}` : "obrigado por entrar em contato."),
  help: "Se tiver qualquer outra dúvida, estamos à disposição para ajudar.",
  signature: (name) => `— Equipe ${name}`,
};

// Words of one spelling written without their accent, and words a dictionary accepts without it
// but that chat drafts almost always mean with it.
export const portugueseWordFixes: Record<string, string> = {
  uteis: "úteis",
  util: "útil",
  estao: "estão",
  tao: "tão",
  mae: "mãe",
  pao: "pão",
  agua: "água",
  gratis: "grátis",
  disponivel: "disponível",
  disponiveis: "disponíveis",
  possivel: "possível",
  impossivel: "impossível",
  otimo: "ótimo",
  otima: "ótima",
  voces: "vocês",
  tambem: "também",
  alem: "além",
  porem: "porém",
  tres: "três",
  mes: "mês",
  saida: "saída",
  lancamento: "lançamento",
  servico: "serviço",
  servicos: "serviços",
  endereco: "endereço",
  transferencia: "transferência",
  referencia: "referência",
  valido: "válido",
  valida: "válida",
  credito: "crédito",
  debito: "débito",
};

// "está" and not "esta" ("this") when what follows can only follow the verb: a place, a state, a
// participle of the list or a gerund ("esta em Lisboa", "esta pronto", "esta chegando").
export const portugueseEstaFollowers =
  "em|no|na|nos|nas|pronto|pronta|prontos|prontas|disponível|disponivel|bem|mal|a caminho|aqui|ali|lá|certo|certa|tudo|muito|sem|esgotado|esgotada|fechado|fechada|aberto|aberta|pago|paga|confirmado|confirmada|atrasado|atrasada|incluído|incluido|anexado|anexada|completo|completa|incompleto|incompleta|errado|errada|correto|correta|ativo|ativa|reservado|reservada|\\p{L}+(?:ando|endo|indo)";

/** The accented letters a misspelled word may have lost. */
export const portugueseAccentOptions: Record<string, string[]> = { a: ["á", "â", "ã", "à"], e: ["é", "ê"], i: ["í"], o: ["ó", "ô", "õ"], u: ["ú"], c: ["ç"] };
