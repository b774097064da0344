import { z } from "zod";
import type { Label } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { labelIdPattern } from "@/lib/conversations/schemas";

const labelColorSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour as #rrggbb")
  .transform((value) => value.toLowerCase())
  .meta({ description: "`#rrggbb`.", example: "#16a34a" });

export const createLabelInput = z
  .strictObject({
    name: z.string().trim().min(1, "is required").max(40, "must be at most 40 characters").meta({ description: "1 to 40 characters, unique in the account (ignoring case).", example: "VIP" }),
    color: labelColorSchema,
  })
  .meta({ id: "CreateLabel" });
export type CreateLabelInput = z.infer<typeof createLabelInput>;

export const MAX_LABELS_PER_CONVERSATION = 20;

export const setConversationLabelsInput = z
  .strictObject({
    label_ids: z
      .array(z.string().regex(labelIdPattern, "must be a label id (lbl_...)"))
      .max(MAX_LABELS_PER_CONVERSATION, `at most ${MAX_LABELS_PER_CONVERSATION} labels`)
      .meta({ description: "Every label the conversation should carry (replaces the current set; [] removes all).", example: ["lbl_01jd2x8k3f0m6q1v9w4r7t5y2z"] }),
  })
  .meta({ id: "SetConversationLabels" });

export const labelOutput = z
  .strictObject({
    id: prefixedId("label"),
    name: z.string().meta({ example: "VIP" }),
    color: z.string().meta({ example: "#16a34a" }),
    created_at: isoTimestamp(),
  })
  .meta({ id: "Label", description: "A label conversations can carry." });
export type LabelOutput = z.infer<typeof labelOutput>;

export function presentLabel(row: Label): LabelOutput {
  return { id: row.id, name: row.name, color: row.color, created_at: row.createdAt.toISOString() };
}
