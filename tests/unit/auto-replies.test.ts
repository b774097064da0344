import { describe, expect, it } from "vitest";
import type { AutoReplySettings } from "@/db/schema";
import { decideAutoReplies } from "@/lib/auto-replies/auto-replies";
import { type Hours, hoursSchema } from "@/lib/profile/hours";

const weekdays9to18 = (open = "09:00", close = "18:00") => ({
  mon: [{ open, close }],
  tue: [{ open, close }],
  wed: [{ open, close }],
  thu: [{ open, close }],
  fri: [{ open, close }],
});

const zones: Record<string, Hours> = {
  madrid: hoursSchema.parse({ timezone: "Europe/Madrid", weekly: { ...weekdays9to18(), sat: [{ open: "10:00", close: "14:00" }] } }),
  saoPaulo: hoursSchema.parse({ timezone: "America/Sao_Paulo", weekly: weekdays9to18("08:00", "17:00") }),
  newYork: hoursSchema.parse({ timezone: "America/New_York", weekly: weekdays9to18() }),
  kolkata: hoursSchema.parse({ timezone: "Asia/Kolkata", weekly: weekdays9to18() }),
  lunchBreak: hoursSchema.parse({ timezone: "Europe/Madrid", weekly: { mon: [{ open: "09:00", close: "14:00" }, { open: "16:00", close: "20:00" }] } }),
};

const spanishMessage = "¡Gracias por escribirnos! Ahora mismo estamos cerrados.";
const settings = (patch: Partial<{ outside: boolean; question: boolean; message: string }> = {}): AutoReplySettings => ({
  outside_hours: { enabled: patch.outside ?? true, message: patch.message ?? "Thanks for writing! We are closed right now." },
  hours_question: { enabled: patch.question ?? true },
});

function decide({
  zone,
  at,
  text,
  lastAutoReplyAt = null,
  autoReply = settings(),
  direction = "inbound",
}: {
  zone: keyof typeof zones;
  at: string;
  text: string | null;
  lastAutoReplyAt?: string | null;
  autoReply?: AutoReplySettings;
  direction?: "inbound" | "outbound";
}) {
  return decideAutoReplies({
    profile: { hours: zones[zone], autoReply },
    conversation: { lastAutoReplyAt: lastAutoReplyAt ? new Date(lastAutoReplyAt) : null },
    message: { direction, text },
    now: new Date(at),
  });
}

describe("decideAutoReplies: the outside-hours answer", () => {
  it.each([
    // zone, instant (UTC), customer text, expected answer (null: none) — what the local clock shows
    ["madrid", "2026-11-23T09:00:00Z", "hola", null], // Mon 10:00 CET, open
    ["madrid", "2026-11-23T19:00:00Z", "Hola, ¿tienen macetas grandes?", "Thanks for writing! We are closed right now.\nNext opening: tomorrow 09:00 (Europe/Madrid)."], // Mon 20:00
    ["madrid", "2026-11-23T07:59:00Z", "Hi, is my order ready?", "Thanks for writing! We are closed right now.\nNext opening: today 09:00 (Europe/Madrid)."], // Mon 08:59
    ["madrid", "2026-11-28T14:00:00Z", "Do you deliver to Toledo?", "Thanks for writing! We are closed right now.\nNext opening: Monday 09:00 (Europe/Madrid)."], // Sat 15:00
    ["madrid", "2026-11-28T12:59:00Z", "hola", null], // Sat 13:59, open
    ["madrid", "2026-11-28T13:00:00Z", "hola", "Thanks for writing! We are closed right now.\nNext opening: Monday 09:00 (Europe/Madrid)."], // Sat 14:00, just closed
    // Spring forward on Sunday 2026-03-29: the same UTC time is 08:30 CET one Monday and 09:30 CEST the next.
    ["madrid", "2026-03-23T07:30:00Z", "hello there", "Thanks for writing! We are closed right now.\nNext opening: today 09:00 (Europe/Madrid)."],
    ["madrid", "2026-03-30T07:30:00Z", "hello there", null],
    // Fall back on Sunday 2026-10-25: 07:30 UTC is 09:30 CEST before and 08:30 CET after.
    ["madrid", "2026-10-19T07:30:00Z", "hello there", null],
    ["madrid", "2026-10-26T07:30:00Z", "hello there", "Thanks for writing! We are closed right now.\nNext opening: today 09:00 (Europe/Madrid)."],
    // Saturday evening before New York falls back (Sunday 2026-11-01): Monday 09:00 EST is 14:00 UTC.
    ["newYork", "2026-11-01T00:30:00Z", "what's up", "Thanks for writing! We are closed right now.\nNext opening: Monday 09:00 (America/New_York)."],
    ["newYork", "2026-11-02T13:59:00Z", "what's up", "Thanks for writing! We are closed right now.\nNext opening: today 09:00 (America/New_York)."], // Mon 08:59 EST
    ["newYork", "2026-11-02T14:00:00Z", "what's up", null], // Mon 09:00 EST
    ["saoPaulo", "2026-11-27T23:00:00Z", "Oi, tudo bem? Vocês entregam hoje?", "Thanks for writing! We are closed right now.\nNext opening: Monday 08:00 (America/Sao_Paulo)."], // Fri 20:00
    ["saoPaulo", "2026-11-27T11:00:00Z", "Oi", null], // Fri 08:00, open
    ["kolkata", "2026-11-23T03:29:00Z", "hello", "Thanks for writing! We are closed right now.\nNext opening: today 09:00 (Asia/Kolkata)."], // Mon 08:59 IST
    ["kolkata", "2026-11-23T03:30:00Z", "hello", null], // Mon 09:00 IST
    ["lunchBreak", "2026-11-23T14:00:00Z", "hola", "Thanks for writing! We are closed right now.\nNext opening: today 16:00 (Europe/Madrid)."], // Mon 15:00, lunch
  ] as const)("%s at %s, %j → %j", (zone, at, text, expected) => {
    const replies = decide({ zone, at, text });
    if (expected === null) expect(replies).toEqual([]);
    else expect(replies).toEqual([{ kind: "outside_hours", text: expected, language: expect.any(String), countsAsOutsideHours: true }]);
  });

  it.each([
    ["11 h 59 min after the last one", "2026-11-23T07:01:00Z", []],
    ["exactly 12 h after the last one", "2026-11-23T07:00:00Z", ["outside_hours"]],
    ["a day after the last one", "2026-11-22T19:00:00Z", ["outside_hours"]],
  ])("answers at most once per 12 h: %s", (_name, lastAutoReplyAt, kinds) => {
    const replies = decide({ zone: "madrid", at: "2026-11-23T19:00:00Z", text: "hello?", lastAutoReplyAt });
    expect(replies.map((reply) => reply.kind)).toEqual(kinds);
  });

  it("answers a message without words in the language the outside-hours message is written in", () => {
    const [reply] = decide({ zone: "madrid", at: "2026-11-23T19:00:00Z", text: null, autoReply: settings({ message: spanishMessage }) });
    expect(reply).toMatchObject({ kind: "outside_hours", language: "es", text: `${spanishMessage}\nPróxima apertura: mañana 09:00 (Europe/Madrid).` });
    const [thumbs] = decide({ zone: "madrid", at: "2026-11-23T19:00:00Z", text: "👍", autoReply: settings({ message: spanishMessage }) });
    expect(thumbs.language).toBe("es");
  });

  it("says nothing when disabled, without hours, or for outbound messages", () => {
    expect(decide({ zone: "madrid", at: "2026-11-23T19:00:00Z", text: "hi", autoReply: settings({ outside: false }) })).toEqual([]);
    expect(decide({ zone: "madrid", at: "2026-11-23T19:00:00Z", text: "hi", direction: "outbound" })).toEqual([]);
    expect(
      decideAutoReplies({ profile: { hours: null, autoReply: settings() }, conversation: { lastAutoReplyAt: null }, message: { direction: "inbound", text: "hi" }, now: new Date() }),
    ).toEqual([]);
    expect(
      decideAutoReplies({ profile: { hours: zones.madrid, autoReply: null }, conversation: { lastAutoReplyAt: null }, message: { direction: "inbound", text: "hi" }, now: new Date("2026-11-23T19:00:00Z") }),
    ).toEqual([]);
  });
});

const madridWeekEn = [
  "Monday: 09:00–18:00",
  "Tuesday: 09:00–18:00",
  "Wednesday: 09:00–18:00",
  "Thursday: 09:00–18:00",
  "Friday: 09:00–18:00",
  "Saturday: 10:00–14:00",
  "Sunday: Closed",
  "Time zone: Europe/Madrid",
].join("\n");

const madridWeekEs = [
  "Lunes: 09:00–18:00",
  "Martes: 09:00–18:00",
  "Miércoles: 09:00–18:00",
  "Jueves: 09:00–18:00",
  "Viernes: 09:00–18:00",
  "Sábado: 10:00–14:00",
  "Domingo: Cerrado",
  "Zona horaria: Europe/Madrid",
].join("\n");

describe("decideAutoReplies: the hours question", () => {
  it.each([
    ["a que hora abren?", "es", "Nuestro horario de atención:"],
    ["¿Cuál es su horario?", "es", "Nuestro horario de atención:"],
    ["What time do you open tomorrow?", "en", "Our opening hours:"],
    ["what are your opening hours", "en", "Our opening hours:"],
    ["Qual o horário de vocês?", "pt", "Nosso horário de atendimento:"],
    ["Que horas vocês abrem amanhã?", "pt", "Nosso horário de atendimento:"],
  ])("answers %j while open with the weekly hours in %s", (text, language, intro) => {
    const replies = decide({ zone: "madrid", at: "2026-11-23T09:00:00Z", text });
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ kind: "hours_question", language, countsAsOutsideHours: false });
    expect(replies[0].text.split("\n")[0]).toBe(intro);
    expect(replies[0].text.split("\n")).toHaveLength(9);
  });

  it("answers in Spanish with every day, closed days and the time zone", () => {
    const [reply] = decide({ zone: "madrid", at: "2026-11-23T09:00:00Z", text: "a que hora abren?" });
    expect(reply.text).toBe(`Nuestro horario de atención:\n${madridWeekEs}`);
  });

  it("while closed, one message answers both: outside-hours message, next opening, weekly hours", () => {
    const replies = decide({ zone: "madrid", at: "2026-11-23T19:00:00Z", text: "a que hora abren?" });
    expect(replies).toEqual([
      {
        kind: "hours_question",
        // The outside-hours message exists in English only, so the whole answer is in English.
        language: "en",
        countsAsOutsideHours: true,
        text: `Thanks for writing! We are closed right now.\nNext opening: tomorrow 09:00 (Europe/Madrid).\n\nOur opening hours:\n${madridWeekEn}`,
      },
    ]);
  });

  it("within the 12-hour quiet period still answers the question, with the next opening but without the outside-hours message", () => {
    const replies = decide({ zone: "madrid", at: "2026-11-23T19:00:00Z", text: "a que hora abren?", lastAutoReplyAt: "2026-11-23T18:00:00Z" });
    expect(replies).toEqual([
      { kind: "hours_question", language: "es", countsAsOutsideHours: false, text: `Próxima apertura: mañana 09:00 (Europe/Madrid).\n\nNuestro horario de atención:\n${madridWeekEs}` },
    ]);
  });

  it("when only the question answer is enabled, closed hours still get the next opening line", () => {
    const replies = decide({ zone: "madrid", at: "2026-11-23T19:00:00Z", text: "What time do you open?", autoReply: settings({ outside: false }) });
    expect(replies).toHaveLength(1);
    expect(replies[0].text.startsWith("Next opening: tomorrow 09:00 (Europe/Madrid).\n\nOur opening hours:\nMonday: 09:00–18:00")).toBe(true);
    expect(replies[0].countsAsOutsideHours).toBe(false);
  });

  it("ignores questions when disabled, and other texts", () => {
    expect(decide({ zone: "madrid", at: "2026-11-23T09:00:00Z", text: "a que hora abren?", autoReply: settings({ question: false }) })).toEqual([]);
    expect(decide({ zone: "madrid", at: "2026-11-23T09:00:00Z", text: "¿Tienen macetas de 30 cm?" })).toEqual([]);
  });
});

describe("decideAutoReplies: the customer's language, never a mix", () => {
  const translated: AutoReplySettings = {
    outside_hours: {
      enabled: true,
      message: "Thanks for writing to {{business.name}}! We are closed right now.",
      translations: { es: "¡Gracias por escribir a {{business.name}}! Ahora estamos cerrados.", pt: "Obrigado por escrever para {{business.name}}! Estamos fechados agora." },
    },
    hours_question: { enabled: true },
  };
  const at = new Date("2026-11-23T19:00:00Z"); // Monday 20:00 in Madrid: closed
  const answer = (text: string | null, profile: { language?: "en" | "es" | "pt"; autoReply?: AutoReplySettings } = {}) =>
    decideAutoReplies({
      profile: { name: "Vivero Sol", language: profile.language ?? "en", hours: zones.madrid, autoReply: profile.autoReply ?? translated },
      conversation: { lastAutoReplyAt: null },
      message: { direction: "inbound", text },
      now: at,
    });

  it.each([
    ["Oi, vocês entregam no interior?", "pt", "Obrigado por escrever para Vivero Sol! Estamos fechados agora.\nPróxima abertura: amanhã 09:00 (Europe/Madrid)."],
    ["Hola, ¿hacen envíos al interior?", "es", "¡Gracias por escribir a Vivero Sol! Ahora estamos cerrados.\nPróxima apertura: mañana 09:00 (Europe/Madrid)."],
    ["Hi, do you ship to the countryside?", "en", "Thanks for writing to Vivero Sol! We are closed right now.\nNext opening: tomorrow 09:00 (Europe/Madrid)."],
  ] as const)("%j is answered wholly in %s", (text, language, expected) => {
    expect(answer(text)).toEqual([{ kind: "outside_hours", language, text: expected, countsAsOutsideHours: true }]);
  });

  it("a Portuguese customer of a Spanish-speaking business without a Portuguese message gets the Spanish answer, all of it", () => {
    const spanishOnly: AutoReplySettings = { outside_hours: { enabled: true, message: "¡Gracias por escribirnos! Ahora mismo estamos cerrados." }, hours_question: { enabled: true } };
    const [reply] = answer("Oi, tudo bem? Vocês entregam hoje?", { language: "es", autoReply: spanishOnly });
    expect(reply).toEqual({ kind: "outside_hours", language: "es", countsAsOutsideHours: true, text: "¡Gracias por escribirnos! Ahora mismo estamos cerrados.\nPróxima apertura: mañana 09:00 (Europe/Madrid)." });
    const [withPt] = answer("Oi, tudo bem? Vocês entregam hoje?", { language: "es", autoReply: { ...spanishOnly, outside_hours: { ...spanishOnly.outside_hours, translations: { pt: "Obrigado! Estamos fechados agora." } } } });
    expect(withPt).toMatchObject({ language: "pt", text: "Obrigado! Estamos fechados agora.\nPróxima abertura: amanhã 09:00 (Europe/Madrid)." });
  });

  it("a message without words is answered in the business's language", () => {
    expect(answer("👍", { language: "pt" })[0]).toMatchObject({ language: "pt", text: expect.stringMatching(/^Obrigado por escrever para Vivero Sol!/) });
    expect(answer(null, { language: "es" })[0]).toMatchObject({ language: "es", text: expect.stringMatching(/Próxima apertura: mañana/) });
  });

  it("an hours question while closed is answered in one language with the translated message", () => {
    const [reply] = answer("Que horas vocês abrem amanhã?");
    expect(reply.language).toBe("pt");
    expect(reply.text).toMatch(/^Obrigado por escrever para Vivero Sol! Estamos fechados agora\.\nPróxima abertura: amanhã 09:00 \(Europe\/Madrid\)\.\n\nNosso horário de atendimento:\nSegunda-feira: 09:00–18:00/);
    expect(reply.text).not.toMatch(/Monday|Lunes|Next|Próxima apertura/);
  });
});
