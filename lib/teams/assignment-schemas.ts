import { z } from "zod";
import { prefixedId } from "@/lib/platform/fields";
import { teamIdPattern, userIdPattern } from "./schemas";

const assignmentModes = ["manual", "round_robin", "balanced"] as const;

const capacityField = z
  .int("must be an integer from 1 to 1000")
  .min(1, "must be an integer from 1 to 1000")
  .max(1000, "must be an integer from 1 to 1000");

export const assignmentConfigQuery = z.object({
  team_id: z.string().regex(teamIdPattern, "must be a team id (team_...)").optional().meta({ description: "The team's policy (its own, or the account's it inherits); the account's when absent." }),
});

export const assignmentConfigInput = z
  .strictObject({
    team_id: z.string().regex(teamIdPattern, "must be a team id (team_...)").optional().meta({ description: "Sets this team's own policy; the account's when absent." }),
    mode: z.enum([...assignmentModes, "inherit"], { error: "must be one of manual, round_robin, balanced, inherit" }).meta({
      description:
        "`manual`: nobody is assigned automatically. `round_robin`: each new conversation goes to the next online person in turn. `balanced`: to the online person with the fewest open conversations. `inherit` (a team only): drop the team's own policy and use the account's.",
    }),
    capacity: capacityField.nullable().default(null).meta({ description: "At most this many open conversations assigned to each person before they get no more automatically; null: no limit.", example: 5 }),
    agent_capacities: z
      .record(z.string().regex(userIdPattern, "must be a user id (usr_...)"), capacityField)
      .default({})
      .refine((value) => Object.keys(value).length <= 200, "at most 200 people")
      .meta({ description: "A different capacity for some people (user id → capacity); each a user of the account.", example: { usr_01jd2x8k3f0m6q1v9w4r7t5y2z: 3 } }),
    away_after_s: z
      .int("must be an integer from 60 to 86400")
      .min(60, "must be an integer from 60 to 86400")
      .max(86_400, "must be an integer from 60 to 86400")
      .optional()
      .meta({ description: "The account only: after how many seconds without activity an `online` person reads as `away` (default 600).", example: 600 }),
  })
  .superRefine((value, ctx) => {
    if (value.mode === "inherit" && !value.team_id) ctx.addIssue({ code: "custom", path: ["mode"], message: "inherit is for a team's policy: send team_id" });
    if (value.away_after_s !== undefined && value.team_id) ctx.addIssue({ code: "custom", path: ["away_after_s"], message: "is set on the account's policy, without team_id" });
  })
  .meta({ id: "AssignmentConfigInput" });
export type AssignmentConfigInput = z.infer<typeof assignmentConfigInput>;

export const assignmentConfigOutput = z
  .strictObject({
    team_id: prefixedId("team", "The team whose policy this is; null for the account's.").nullable(),
    inherited: z.boolean().meta({ description: "True when the team has no policy of its own and follows the account's." }),
    mode: z.enum(assignmentModes),
    capacity: z.int().nullable().meta({ description: "Open conversations per person; null: no limit." }),
    agent_capacities: z.record(z.string(), z.int()).meta({ description: "Per-person capacities (user id → capacity)." }),
    away_after_s: z.int().meta({ description: "The account's away delay in seconds." }),
  })
  .meta({ id: "AssignmentConfig", description: "How new conversations are handed out automatically." });
export type AssignmentConfigOutput = z.infer<typeof assignmentConfigOutput>;
