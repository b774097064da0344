import { z } from "zod";
import "zod-openapi";
import { prefixedId } from "@/lib/platform/fields";

/** POST /v1/conversations/{id}/draft takes an empty object: the conversation says it all. */
export const draftInput = z.strictObject({}).meta({ id: "DraftInput", description: "Send `{}`." });

const draftSource = z
  .object({
    type: z.enum(["description", "document"]).meta({ description: "`description` (the business profile) or `document` (an uploaded PDF)." }),
    document_id: prefixedId("document", "The document, for `document`.").optional(),
    filename: z.string().optional().meta({ description: "The document's file name, for `document`.", example: "envios.pdf" }),
    page: z.int().min(1).optional().meta({ description: "The page of the document, when known." }),
    excerpt: z.string().meta({ description: "The cited passage (at most about 300 characters).", example: "Envíos al interior: 3 a 5 días hábiles, gratis en compras de más de 50.000 pesos." }),
  })
  .meta({ id: "DraftSource" });

export const draftOutput = z
  .object({
    text: z.string().meta({ description: "The drafted reply, for the agent to read and send (nothing is sent).", example: "¡Hola! Sí, enviamos a todo el país en 3 a 5 días hábiles." }),
    sources: z.array(draftSource).min(1).meta({ description: "The passages the answer is drawn from; every number, price, date and link in `text` appears in one of them." }),
  })
  .meta({ id: "Draft" });
export type DraftOutput = z.infer<typeof draftOutput>;

export const ASSISTANT_MIN_SCORE_DEFAULT = 0.1;

export const assistantConfigInput = z
  .strictObject({
    answer_outside_hours: z.boolean({ error: "is required: true or false" }).meta({ description: "Answer customers' questions outside opening hours from the business's documents." }),
    min_score: z
      .number({ error: "is required (a number from 0 to 1)" })
      .min(0, "must be at least 0")
      .max(1, "must be at most 1")
      .meta({ description: "The retrieval score (full-text rank of the best passage) a question must reach to be answered; below it a person is asked instead.", example: ASSISTANT_MIN_SCORE_DEFAULT }),
  })
  .meta({ id: "AssistantConfigInput", description: "The answer assistant's settings (replaces both fields)." });
export type AssistantConfigInput = z.output<typeof assistantConfigInput>;

export const assistantConfigOutput = z
  .strictObject({
    answer_outside_hours: z.boolean().meta({ description: "Whether questions outside opening hours are answered by the assistant." }),
    min_score: z.number().meta({ example: ASSISTANT_MIN_SCORE_DEFAULT }),
    available: z.boolean().meta({ description: "Whether a language model is configured (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). Without one the assistant is off whatever the settings say." }),
  })
  .meta({ id: "AssistantConfig", description: "The answer assistant: drafts replies from the business's documents and, when enabled, answers outside opening hours." });
export type AssistantConfigOutput = z.infer<typeof assistantConfigOutput>;
