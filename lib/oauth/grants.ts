import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
import { oauthApps, oauthGrants } from "@/db/schema";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import type { Scope } from "@/lib/auth/scopes";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { revokeGrants } from "./apps";

/** The apps the user has let act for them (live grants), newest first. */
export async function listAuthorizedApps({ ctx }: { ctx: ServiceContext<"user"> }) {
  const rows = await ctx.db
    .select({ grant: oauthGrants, app: { id: oauthApps.id, name: oauthApps.name, redirectUris: oauthApps.redirectUris } })
    .from(oauthGrants)
    .innerJoin(oauthApps, eq(oauthApps.id, oauthGrants.appId))
    .where(and(eq(oauthGrants.accountId, ctx.accountId), eq(oauthGrants.userId, ctx.user.id), isNull(oauthGrants.revokedAt), isNull(oauthApps.deletedAt)))
    .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id))
    .limit(100);
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
    const [grant] = await tx
      .select({ appId: oauthGrants.appId })
      .from(oauthGrants)
      .where(and(eq(oauthGrants.id, grantId), eq(oauthGrants.accountId, ctx.accountId), eq(oauthGrants.userId, ctx.user.id), isNull(oauthGrants.revokedAt)))
      .limit(1);
    if (!grant) throw new NotFoundError("Authorisation");
    await revokeGrants(tx, { grantId }, "revoked_by_user");
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "app.revoked", target: { type: "app", id: grant.appId } });
  });
}
