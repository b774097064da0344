import { z } from "zod";
import type { Team } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

export const userIdPattern = /^usr_[0-9a-z]{26}$/;
export const teamIdPattern = /^team_[0-9a-z]{26}$/;

const teamName = z.string().trim().min(1, "is required").max(60, "must be at most 60 characters").meta({ description: "1 to 60 characters, unique in the account (ignoring case).", example: "Sales" });
const members = z
  .array(z.string().regex(userIdPattern, "must be a user id (usr_...)"))
  .max(100, "at most 100 members")
  .meta({ description: "Every member (replaces the current set); each a current user of the account, else 400 naming it.", example: ["usr_01jd2x8k3f0m6q1v9w4r7t5y2z"] });

export const createTeamInput = z.strictObject({ name: teamName, members: members.default([]) }).meta({ id: "CreateTeam" });
export type CreateTeamInput = z.infer<typeof createTeamInput>;

export const updateTeamInput = z
  .strictObject({ name: teamName.optional(), members: members.optional() })
  .refine((v) => v.name !== undefined || v.members !== undefined, { message: "send name or members" })
  .meta({ id: "UpdateTeam" });
export type UpdateTeamInput = z.infer<typeof updateTeamInput>;

export const teamOutput = z
  .strictObject({
    id: prefixedId("team"),
    name: z.string().meta({ example: "Sales" }),
    members: z.array(prefixedId("user")).meta({ description: "Its members' user ids." }),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "Team", description: "A group of users conversations can be routed to." });
export type TeamOutput = z.infer<typeof teamOutput>;

export function presentTeam(row: Team, memberIds: string[]): TeamOutput {
  return { id: row.id, name: row.name, members: [...memberIds].sort(), created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}
