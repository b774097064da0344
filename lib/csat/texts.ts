import type { Language } from "@/lib/platform/language/language";

/**
 * What the satisfaction survey says to a customer, in each language the product speaks. The list
 * fits the network's interactive-list limits: a button of at most 20 characters, row and section
 * titles of at most 24.
 */
export const csatTexts: Record<Language, { question: string; button: string; choices: Record<1 | 2 | 3 | 4 | 5, string>; thanks: string }> = {
  en: {
    question: "How would you rate the help you got today? Choose a score from 1 (poor) to 5 (excellent).",
    button: "Rate us",
    choices: { 1: "1 - Very poor", 2: "2 - Poor", 3: "3 - Okay", 4: "4 - Good", 5: "5 - Excellent" },
    thanks: "Thank you for your rating!",
  },
  es: {
    question: "¿Cómo valorarías la ayuda que recibiste hoy? Elige una puntuación del 1 (mala) al 5 (excelente).",
    button: "Valóranos",
    choices: { 1: "1 - Muy mala", 2: "2 - Mala", 3: "3 - Regular", 4: "4 - Buena", 5: "5 - Excelente" },
    thanks: "¡Gracias por tu valoración!",
  },
  pt: {
    question: "Como você avalia o atendimento que recebeu hoje? Escolha uma nota de 1 (ruim) a 5 (excelente).",
    button: "Avalie-nos",
    choices: { 1: "1 - Muito ruim", 2: "2 - Ruim", 3: "3 - Regular", 4: "4 - Bom", 5: "5 - Excelente" },
    thanks: "Obrigado pela sua avaliação!",
  },
};

/**
 * The question sent to a customer speaking `language`: the product's own question in that
 * language while the account keeps the default (in any language), else the account's own words.
 */
export function surveyQuestionIn(question: string, language: Language): string {
  const trimmed = question.trim();
  const isDefault = Object.values(csatTexts).some((texts) => texts.question === trimmed);
  return isDefault ? csatTexts[language].question : question;
}
