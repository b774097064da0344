import "server-only";
import { announceAuthChange } from "@/lib/auth/token-cache";
import { isNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { oauthApps } from "@/db/schema";
import { type CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { type CreateAppInput, presentApp } from "./schemas";
import { hashSecret, newSecret } from "@/lib/platform/crypto/secret-hash";
import { findLiveAppByClientId, insertApp, revokeGrantRows, selectApps, softDeleteApp } from "./store";

/** Registers an app; a confidential client's secret is returned only here. */
export async function createApp({ ctx, input }: { ctx: ServiceContext<"user">; input: CreateAppInput }) {
  const now = new Date();
  const clientSecret = input.client_type === "confidential" ? newSecret("chorus_secret_") : null;
  return ctx.db.transaction(async (tx) => {
    const row = await insertApp(tx, {
      id: newId("app", now),
      accountId: ctx.accountId,
      name: input.name,
      clientId: newSecret("chorus_", 18),
      clientType: input.client_type,
      clientSecretHash: clientSecret ? hashSecret(clientSecret) : null,
      redirectUris: input.redirect_uris,
      allowedScopes: input.allowed_scopes,
      createdBy: ctx.user.id,
      createdAt: now,
    });
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "app.created", target: { type: "app", id: row.id } });
    return { ...presentApp(row), client_secret: clientSecret };
  });
}

/** The account's apps, newest first. */
export async function listApps({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  return keysetPage(selectApps(ctx.db), {
    table: oauthApps,
    accountId: ctx.accountId,
    where: [isNull(oauthApps.deletedAt)],
    order: "desc",
    limit,
    cursor,
    position: (r) => ({ t: r.createdAt, id: r.id }),
    present: presentApp,
  });
}

/** Ends every grant of one app (or one grant): its access tokens stop working at once, its refresh tokens too. */
export async function revokeGrants(tx: Executor, where: { appId: string } | { grantId: string }, reason: string) {
  const revoked = await revokeGrantRows(tx, where, reason, new Date());
  // Cached token state is forgotten here now, and on every instance at commit.
  if (revoked) await announceAuthChange(tx);
  return revoked;
}

/** Removes an app: its client id stops working and every user's grant to it ends. */
export async function deleteApp({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  await ctx.db.transaction(async (tx) => {
    if (!(await softDeleteApp(tx, { accountId: ctx.accountId, id }))) throw new NotFoundError("App");
    await revokeGrants(tx, { appId: id }, "app_deleted");
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "app.deleted", target: { type: "app", id } });
  });
}

/** A live app by its client id (any account: the client id alone names it). */
export async function findAppByClientId(db: Executor, clientId: string) {
  return findLiveAppByClientId(db, clientId);
}
