import "server-only";
import type { Executor } from "@/db";
import { slaPolicies } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { auditChange } from "@/lib/audit/record-audit";
import { ConflictError, conflictOnUnique, invalidField, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { deleteSlaPolicyRow, detachSlaPolicyFromConversations, findDefaultSlaPolicyId, findSlaPolicy, insertSlaPolicy, selectSlaPolicies, setDefaultSlaPolicyId, updateSlaPolicyRow } from "./store";
import { type CreateSlaPolicyInput, presentSlaPolicy, type UpdateSlaPolicyInput } from "./schemas";

const defaultPolicyId = (executor: Executor, accountId: string) => findDefaultSlaPolicyId(executor, { accountId });

const setDefault = (tx: Executor, accountId: string, policyId: string | null) => setDefaultSlaPolicyId(tx, { accountId, policyId });

const duplicate = () => new ConflictError("An SLA policy with this name already exists.");

// Inserts that break the unique name index answer 409; nothing else is written.
const uniqueName = <T>(work: () => Promise<T>) => conflictOnUnique(work, duplicate);

/** Oldest first. */
export async function listSlaPolicies({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  const executor = ctx.db;
  const defaultId = await defaultPolicyId(executor, ctx.accountId);
  return keysetPage(selectSlaPolicies(executor), {
    table: slaPolicies,
    accountId: ctx.accountId,
    order: "asc",
    limit,
    cursor,
    position: (p) => ({ t: p.createdAt, id: p.id }),
    present: (p) => presentSlaPolicy(p, defaultId),
  });
}

async function findPolicy(executor: Executor, accountId: string, id: string, lock = false) {
  const row = await findSlaPolicy(executor, { accountId, id, lock });
  if (!row) throw new NotFoundError("SLA policy");
  return row;
}

export async function getSlaPolicy({ ctx, id }: { ctx: ServiceContext; id: string }) {
  const executor = ctx.db;
  return presentSlaPolicy(await findPolicy(executor, ctx.accountId, id), await defaultPolicyId(executor, ctx.accountId));
}

export async function createSlaPolicy({ ctx, input }: { ctx: ServiceContext; input: CreateSlaPolicyInput }) {
  return uniqueName(() =>
    ctx.db.transaction(async (tx) => {
      const now = new Date();
      const row = await insertSlaPolicy(tx, {
          id: newId("slaPolicy", now),
          accountId: ctx.accountId,
          name: input.name,
          firstResponseS: input.first_response_s,
          nextResponseS: input.next_response_s,
          resolutionS: input.resolution_s,
          businessHoursOnly: input.business_hours_only,
          createdAt: now,
          updatedAt: now,
        });
      if (input.default) await setDefault(tx, ctx.accountId, row.id);
      await auditChange(ctx, "sla_policy.created", { type: "sla_policy", id: row.id }, tx);
      return presentSlaPolicy(row, await defaultPolicyId(tx, ctx.accountId));
    }),
  );
}

/** Changes apply to clocks started from now on; running clocks keep their due time. */
export async function updateSlaPolicy({ ctx, id, input }: { ctx: ServiceContext; id: string; input: UpdateSlaPolicyInput }) {
  return uniqueName(() =>
    ctx.db.transaction(async (tx) => {
      const current = await findPolicy(tx, ctx.accountId, id, true);
      const next = {
        name: input.name ?? current.name,
        firstResponseS: input.first_response_s !== undefined ? input.first_response_s : current.firstResponseS,
        nextResponseS: input.next_response_s !== undefined ? input.next_response_s : current.nextResponseS,
        resolutionS: input.resolution_s !== undefined ? input.resolution_s : current.resolutionS,
        businessHoursOnly: input.business_hours_only ?? current.businessHoursOnly,
      };
      if (next.firstResponseS == null && next.nextResponseS == null && next.resolutionS == null) {
        throw invalidField("first_response_s", "set at least one of first_response_s, next_response_s, resolution_s");
      }
      const row = await updateSlaPolicyRow(tx, { id, set: { ...next, updatedAt: new Date() } });
      const currentDefault = await defaultPolicyId(tx, ctx.accountId);
      if (input.default === true && currentDefault !== id) await setDefault(tx, ctx.accountId, id);
      if (input.default === false && currentDefault === id) await setDefault(tx, ctx.accountId, null);
      await auditChange(ctx, "sla_policy.updated", { type: "sla_policy", id }, tx);
      return presentSlaPolicy(row, await defaultPolicyId(tx, ctx.accountId));
    }),
  );
}

/** Deletes the policy; conversations under it keep going without one (their clocks stop). */
export async function deleteSlaPolicy({ ctx, id }: { ctx: ServiceContext; id: string }) {
  await ctx.db.transaction(async (tx) => {
    await findPolicy(tx, ctx.accountId, id, true);
    await detachSlaPolicyFromConversations(tx, { accountId: ctx.accountId, slaPolicyId: id });
    await deleteSlaPolicyRow(tx, { id });
    await auditChange(ctx, "sla_policy.deleted", { type: "sla_policy", id }, tx);
  });
}
