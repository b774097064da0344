import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { presentUser, type Availability } from "@/lib/auth/user-identity";
import { recordEvent } from "@/lib/events/record-event";
import { NotFoundError } from "@/lib/platform/errors";
import { findLiveUser, updateLiveUser } from "@/lib/users/store";
import { drainAssignmentQueue, loadWorkflowSettings } from "./assignment";

/** The caller as the user resource shows them, availability included. */
export async function getMe({ ctx }: { ctx: ServiceContext<"user"> }) {
  const db = ctx.db;
  const user = await findLiveUser(db, { accountId: ctx.accountId, id: ctx.user.id });
  if (!user) throw new NotFoundError("User");
  return presentUser(user, await loadWorkflowSettings(db, ctx.accountId));
}

/**
 * Sets what the caller is (online, busy, offline); saying so counts as activity. Going online
 * hands the waiting conversations out at once, oldest first, to whoever can take them.
 */
export async function setMyAvailability({ ctx, availability }: { ctx: ServiceContext<"user">; availability: Availability }) {
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const user = await updateLiveUser(tx, { accountId: ctx.accountId, id: ctx.user.id, set: { availability, lastActiveAt: now } });
    if (!user) throw new NotFoundError("User");
    const settings = await loadWorkflowSettings(tx, ctx.accountId);
    const output = presentUser(user, settings);
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "user.updated", data: { user: output } });
    if (availability === "online") await drainAssignmentQueue({ ...ctx, db: tx }, { accountId: ctx.accountId, now });
    return output;
  });
}
