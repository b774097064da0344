import "server-only";
import type { Executor } from "@/db";
import { teams } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { auditChange } from "@/lib/audit/record-audit";
import { ConflictError, conflictOnUnique, invalidField, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { type CreateTeamInput, presentTeam, type UpdateTeamInput } from "./schemas";
import { deleteTeamRow, findTeam, findTeamMembers, insertTeam, lockTeam, replaceTeamMembers, selectTeams, updateTeamRow } from "./store";
import { findLiveUserIds } from "@/lib/users/store";

const membersOf = (executor: Executor, teamIds: string[]) => findTeamMembers(executor, { teamIds });
const setMembers = (tx: Executor, accountId: string, teamId: string, memberIds: string[]) => replaceTeamMembers(tx, { accountId, teamId, memberIds });

const duplicate = () => new ConflictError("A team with this name already exists.");

/** Oldest first. */
export async function listTeams({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  const page = await keysetPage(selectTeams(ctx.db), {
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
  const known = new Set(await findLiveUserIds(tx, { accountId, ids: unique }));
  const unknown = ids.findIndex((id) => !known.has(id));
  if (unknown >= 0) throw invalidField(`members.${unknown}`, "is not a user of this account");
  return unique;
}

// Inserts that break the unique name index answer 409; nothing else is written.
const uniqueName = <T>(work: () => Promise<T>) => conflictOnUnique(work, duplicate);

export async function createTeam({ ctx, input }: { ctx: ServiceContext; input: CreateTeamInput }) {
  return uniqueName(() =>
    ctx.db.transaction(async (tx) => {
      const memberIds = await assertMembers(tx, ctx.accountId, input.members);
      const now = new Date();
      const row = await insertTeam(tx, { id: newId("team", now), accountId: ctx.accountId, name: input.name, createdAt: now, updatedAt: now });
      await setMembers(tx, ctx.accountId, row.id, memberIds);
      await auditChange(ctx, "team.created", { type: "team", id: row.id }, tx);
      return presentTeam(row, memberIds);
    }),
  );
}

export async function updateTeam({ ctx, id, input }: { ctx: ServiceContext; id: string; input: UpdateTeamInput }) {
  return uniqueName(() =>
    ctx.db.transaction(async (tx) => {
      const current = await lockTeam(tx, { accountId: ctx.accountId, id });
      if (!current) throw new NotFoundError("Team");
      const memberIds = input.members ? await assertMembers(tx, ctx.accountId, input.members) : undefined;
      const row = await updateTeamRow(tx, { id, set: { ...(input.name !== undefined ? { name: input.name } : {}), updatedAt: new Date() } });
      if (memberIds) await setMembers(tx, ctx.accountId, id, memberIds);
      await auditChange(ctx, "team.updated", { type: "team", id }, tx);
      return presentTeam(row, memberIds ?? (await membersOf(tx, [id])).get(id) ?? []);
    }),
  );
}

/** Deletes the team; its conversations keep going without a team (team_id null), its own assignment policy goes with it. */
export async function deleteTeam({ ctx, id }: { ctx: ServiceContext; id: string }) {
  await ctx.db.transaction(async (tx) => {
    const row = await deleteTeamRow(tx, { accountId: ctx.accountId, id });
    if (!row) throw new NotFoundError("Team");
    await auditChange(ctx, "team.deleted", { type: "team", id }, tx);
  });
}
