import { z } from "zod";
import { languages } from "@/lib/platform/language/language";
import { polishStyles } from "./rules";

export const POLISH_TEXT_MAX = 4096;

export const polishInput = z.object({
  text: z
    .string({ error: "is required" })
    .max(POLISH_TEXT_MAX, `must be at most ${POLISH_TEXT_MAX} characters`)
    .refine((text) => text.trim().length > 0, "must not be empty")
    .meta({ description: `The draft, at most ${POLISH_TEXT_MAX} characters.`, example: "hi pls send me ur address thx" }),
  language: z
    .enum(languages, { error: `must be one of ${languages.join(", ")}` })
    .optional()
    .meta({ description: "The draft's language (`en`, `es`, `pt`); detected when absent. The polished text stays in it." }),
  conversation_id: z
    .string({ error: "must be a conversation id (conv_...)" })
    .regex(/^conv_[0-9a-z]{26}$/, "must be a conversation id (conv_...)")
    .optional()
    .meta({ description: "The conversation the reply is for: the contact's name is then written with its capitals, as the team's names and the places the business profile names always are." }),
  style: z.enum(polishStyles, { error: `must be one of ${polishStyles.join(", ")}` }).meta({
    description: "`concise` shortens and removes filler; `normal` fixes spacing, capitals, punctuation, spelling, accents and chat abbreviations; `explanatory` adds a courteous opening and closing with the business name. The fixes of `normal` apply under every style.",
  }),
});

export const polishOutput = z
  .object({
    text: z.string().meta({ example: "Hi, please send me your address. Thanks!" }),
    conversation_id: z
    .string({ error: "must be a conversation id (conv_...)" })
    .regex(/^conv_[0-9a-z]{26}$/, "must be a conversation id (conv_...)")
    .optional()
    .meta({ description: "The conversation the reply is for: the contact's name is then written with its capitals, as the team's names and the places the business profile names always are." }),
  style: z.enum(polishStyles),
    language: z.enum(languages).meta({ description: "The language the draft was polished in." }),
    engine: z.enum(["rules", "llm"]).meta({ description: "`rules` (built in) or `llm` (the configured language model)." }),
  })
  .meta({ id: "PolishedText" });
export type PolishOutput = z.infer<typeof polishOutput>;
