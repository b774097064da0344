import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { teamMembers, teams, users } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { auditChange } from "@/lib/audit/record-audit";
import { ConflictError, conflictOnUnique, invalidField, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { type CreateTeamInput, presentTeam, type UpdateTeamInput } from "./schemas";

const duplicate = () => new ConflictError("A team with this name already exists.");

/** The member ids of each team, in one query. */
async function membersOf(executor: Executor, teamIds: string[]) {
  const byTeam = new Map<string, string[]>(teamIds.map((id) => [id, []]));
  if (teamIds.length === 0) return byTeam;
  const rows = await executor.select({ teamId: teamMembers.teamId, userId: teamMembers.userId }).from(teamMembers).where(inArray(teamMembers.teamId, teamIds));
  for (const row of rows) byTeam.get(row.teamId)?.push(row.userId);
  return byTeam;
}

/** Oldest first. */
export async function listTeams({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  const page = await keysetPage(ctx.db.select().from(teams).$dynamic(), {
    table: teams,
    accountId: ctx.accountId,
    order: "asc",
    limit,
    cursor,
    position: (t) => ({ t: t.createdAt, id: t.id }),
    present: (t) => t,
  });
  const members = await membersOf(ctx.db, page.data.map((t) => t.id));
  return { ...page, data: page.data.map((t) => presentTeam(t, members.get(t.id) ?? [])) };
}

/** A team of the account, or undefined. */
async function findTeam(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor
    .select()
    .from(teams)
    .where(and(eq(teams.accountId, accountId), eq(teams.id, id)))
    .limit(1);
  return row;
}

export async function getTeam({ ctx, id }: { ctx: ServiceContext; id: string }) {
  const executor = ctx.db;
  const row = await findTeam(executor, { accountId: ctx.accountId, id });
  if (!row) throw new NotFoundError("Team");
  return presentTeam(row, (await membersOf(executor, [row.id])).get(row.id) ?? []);
}

/** Checks that every id is a current user of the account (400 naming the first that is not). */
async function assertMembers(tx: Executor, accountId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const found = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.accountId, accountId), inArray(users.id, unique), isNull(users.deletedAt)));
  const known = new Set(found.map((u) => u.id));
  const unknown = ids.findIndex((id) => !known.has(id));
  if (unknown >= 0) throw invalidField(`members.${unknown}`, "is not a user of this account");
  return unique;
}

async function setMembers(tx: Executor, accountId: string, teamId: string, memberIds: string[]) {
  await tx.delete(teamMembers).where(eq(teamMembers.teamId, teamId));
  if (memberIds.length) await tx.insert(teamMembers).values(memberIds.map((userId) => ({ teamId, userId, accountId })));
}

// Inserts that break the unique name index answer 409; nothing else is written.
const uniqueName = <T>(work: () => Promise<T>) => conflictOnUnique(work, duplicate);

export async function createTeam({ ctx, input }: { ctx: ServiceContext; input: CreateTeamInput }) {
  return uniqueName(() =>
    ctx.db.transaction(async (tx) => {
      const memberIds = await assertMembers(tx, ctx.accountId, input.members);
      const now = new Date();
      const [row] = await tx.insert(teams).values({ id: newId("team", now), accountId: ctx.accountId, name: input.name, createdAt: now, updatedAt: now }).returning();
      await setMembers(tx, ctx.accountId, row.id, memberIds);
      await auditChange(ctx, "team.created", { type: "team", id: row.id }, tx);
      return presentTeam(row, memberIds);
    }),
  );
}

export async function updateTeam({ ctx, id, input }: { ctx: ServiceContext; id: string; input: UpdateTeamInput }) {
  return uniqueName(() =>
    ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(teams)
        .where(and(eq(teams.accountId, ctx.accountId), eq(teams.id, id)))
        .for("update");
      if (!current) throw new NotFoundError("Team");
      const memberIds = input.members ? await assertMembers(tx, ctx.accountId, input.members) : undefined;
      const [row] = await tx
        .update(teams)
        .set({ ...(input.name !== undefined ? { name: input.name } : {}), updatedAt: new Date() })
        .where(eq(teams.id, id))
        .returning();
      if (memberIds) await setMembers(tx, ctx.accountId, id, memberIds);
      await auditChange(ctx, "team.updated", { type: "team", id }, tx);
      return presentTeam(row, memberIds ?? (await membersOf(tx, [id])).get(id) ?? []);
    }),
  );
}

/** Deletes the team; its conversations keep going without a team (team_id null), its own assignment policy goes with it. */
export async function deleteTeam({ ctx, id }: { ctx: ServiceContext; id: string }) {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(teams)
      .where(and(eq(teams.accountId, ctx.accountId), eq(teams.id, id)))
      .returning();
    if (!row) throw new NotFoundError("Team");
    await auditChange(ctx, "team.deleted", { type: "team", id }, tx);
  });
}
