import { z } from "zod";
import { csatTexts } from "./texts";

export const CSAT_QUESTION_MAX = 200;
/** The question of an account that never wrote its own; sent in the customer's language. */
export const DEFAULT_CSAT_QUESTION = csatTexts.en.question;
/** How long after the survey was sent an answer still counts. */
export const CSAT_ANSWER_WINDOW_MS = 24 * 60 * 60 * 1000;

export const csatConfigInput = z
  .object({
    enabled: z.boolean({ error: "is required: true or false" }).meta({ description: "Send the survey when a conversation is closed." }),
    question: z
      .string({ error: "is required (a string)" })
      .trim()
      .min(1, "must not be empty")
      .max(CSAT_QUESTION_MAX, `must be at most ${CSAT_QUESTION_MAX} characters`)
      .meta({
        description: `The question the customer sees above the scores, 1 to ${CSAT_QUESTION_MAX} characters. While it is the product's default question (in English, Spanish or Portuguese), each customer gets that question, and the list, in their own language.`,
        example: DEFAULT_CSAT_QUESTION,
      }),
  })
  .meta({ id: "CsatConfigInput", description: "The satisfaction survey's settings (replaces both fields)." });
export type CsatConfigInput = z.output<typeof csatConfigInput>;

export const csatConfigOutput = z
  .strictObject({
    enabled: z.boolean().meta({ description: "Whether closing a conversation sends the survey." }),
    question: z.string().meta({ example: DEFAULT_CSAT_QUESTION }),
  })
  .meta({ id: "CsatConfig", description: "The satisfaction survey: an interactive list with the scores 1 to 5, sent when a conversation is closed." });
export type CsatConfigOutput = z.infer<typeof csatConfigOutput>;

export { csatChoiceId, csatScores } from "./choices";
