export type PolishLanguage = "en" | "es" | "pt";
