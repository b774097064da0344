import "server-only";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import type { Scope } from "@/lib/auth/scopes";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { revokeGrants } from "./apps";
import { findLiveUserGrant, selectLiveUserGrants } from "./store";

/** The apps the user has let act for them (live grants), newest first. */
export async function listAuthorizedApps({ ctx }: { ctx: ServiceContext<"user"> }) {
  const rows = await selectLiveUserGrants(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id });
  return rows.map((r) => ({
    id: r.grant.id,
    app: { id: r.app.id, name: r.app.name, host: new URL(r.app.redirectUris[0]).host },
    scopes: r.grant.scopes as Scope[],
    created_at: r.grant.createdAt.toISOString(),
  }));
}

/** The user takes back an app's access: its tokens stop working at once. */
export async function revokeAuthorizedApp({ ctx, grantId }: { ctx: ServiceContext<"user">; grantId: string }) {
  await ctx.db.transaction(async (tx) => {
    const grant = await findLiveUserGrant(tx, { accountId: ctx.accountId, userId: ctx.user.id, grantId });
    if (!grant) throw new NotFoundError("Authorisation");
    await revokeGrants(tx, { grantId }, "revoked_by_user");
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "app.revoked", target: { type: "app", id: grant.appId } });
  });
}
