import { z } from "zod";
import { prefixedId } from "@/lib/platform/fields";

const attainmentRow = {
  met: z.int().min(0).meta({ description: "Targets met in the range." }),
  breached: z.int().min(0).meta({ description: "Targets breached in the range." }),
  attainment: z.number().min(0).max(1).nullable().meta({ description: "met / (met + breached); null without any.", example: 0.92 }),
};

export const slaReportOutput = z
  .strictObject({
    from: z.string(),
    to: z.string(),
    policies: z.array(z.strictObject({ policy_id: prefixedId("slaPolicy"), name: z.string().nullable().meta({ description: "Null once the policy was deleted." }), ...attainmentRow })),
    agents: z.array(
      z.strictObject({
        user_id: prefixedId("user", "The person the outcome counted for; null: nobody (unassigned).").nullable(),
        name: z.string().nullable(),
        ...attainmentRow,
      }),
    ),
  })
  .meta({ id: "SlaReport", description: "SLA attainment per policy and per person, from the outcomes recorded when they happened." });
export type SlaReportOutput = z.infer<typeof slaReportOutput>;

