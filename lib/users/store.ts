import { and, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { accounts, apiTokens, businessProfiles, conversations, invitations, passwordResets, users } from "@/db/schema";

const live = (accountId: string) => and(eq(users.accountId, accountId), isNull(users.deletedAt));

/** A user of the account (deleted ones too) by id, with their name. */
export async function findUserName(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select({ id: users.id, name: users.name }).from(users).where(and(eq(users.accountId, accountId), eq(users.id, id))).limit(1);
  return row;
}

/** The account's users, for a keyset page (with `isNull(users.deletedAt)` for the live ones). */
export function selectUsers(executor: Executor) {
  return executor.select().from(users).$dynamic();
}

/** A user of the account who is not deleted, locked for the rest of the transaction when `lock`. */
export async function findLiveUser(executor: Executor, { accountId, id, lock = false }: { accountId: string; id: string; lock?: boolean }) {
  const query = executor
    .select()
    .from(users)
    .where(and(live(accountId), eq(users.id, id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

export async function insertUser(tx: Executor, values: typeof users.$inferInsert) {
  const [row] = await tx.insert(users).values(values).returning();
  return row;
}

/** Updates one user's columns by id and returns the row. */
export async function updateUserRow(tx: Executor, { id, set }: { id: string; set: Partial<typeof users.$inferInsert> }) {
  const [row] = await tx.update(users).set(set).where(eq(users.id, id)).returning();
  return row;
}

/** Locks the account's administrators, so two demotions cannot both pass the admin-count check. */
export async function lockAdmins(tx: Executor, { accountId }: { accountId: string }) {
  await tx.execute(sql`select id from ${users} where ${users.accountId} = ${accountId} and ${users.role} = 'admin' and ${users.deletedAt} is null for update`);
}

/** How many live administrators the account has besides `exceptId`. */
export async function countOtherAdmins(tx: Executor, { accountId, exceptId }: { accountId: string; exceptId: string }) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(live(accountId), eq(users.role, "admin"), ne(users.id, exceptId)));
  return row.n;
}

/** Revokes the user's tokens still valid: their sign-in sessions only when `sessionsOnly`. */
export async function revokeUserTokens(tx: Executor, { userId, at, sessionsOnly = false }: { userId: string; at: Date; sessionsOnly?: boolean }) {
  await tx
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(apiTokens.userId, userId), sessionsOnly ? eq(apiTokens.kind, "session") : undefined, isNull(apiTokens.revokedAt)));
}

/** Returns the account's conversations assigned to the user to the open queue (a snoozed or closed one keeps its status). */
export async function releaseAssignedConversations(tx: Executor, { accountId, userId, at }: { accountId: string; userId: string; at: Date }) {
  return tx
    .update(conversations)
    .set({ assignedTo: null, assignedAt: null, status: sql`case when ${conversations.status} = 'assigned' then 'open' else ${conversations.status} end`, updatedAt: at })
    .where(and(eq(conversations.accountId, accountId), eq(conversations.assignedTo, userId)))
    .returning({ id: conversations.id, status: conversations.status, assignedTo: conversations.assignedTo, assignedAt: conversations.assignedAt });
}

/** Updates a live user of the account and returns the row (undefined when there is none). */
export async function updateLiveUser(tx: Executor, { accountId, id, set }: { accountId: string; id: string; set: Partial<typeof users.$inferInsert> }) {
  const [row] = await tx
    .update(users)
    .set(set)
    .where(and(live(accountId), eq(users.id, id)))
    .returning();
  return row;
}

/** A live user's chosen interface language and their account's business language, in one query. */
export async function findUserLocale(db: Executor, { accountId, userId }: { accountId: string; userId: string }) {
  const [row] = await db
    .select({ locale: users.locale, language: businessProfiles.language })
    .from(users)
    .leftJoin(businessProfiles, eq(businessProfiles.accountId, users.accountId))
    .where(and(live(accountId), eq(users.id, userId)))
    .limit(1);
  return row;
}

/** A reset link by the hash of its token, with whose password it sets. */
export async function findPasswordReset(db: Executor, { tokenHash }: { tokenHash: string }) {
  const [row] = await db
    .select({ reset: passwordResets, user: { id: users.id, name: users.name, email: users.email, deletedAt: users.deletedAt } })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Spends the user's reset links not used yet (a newer one replaces them). */
export async function spendOpenPasswordResets(tx: Executor, { userId, at }: { userId: string; at: Date }) {
  await tx.update(passwordResets).set({ usedAt: at }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

export async function insertPasswordReset(tx: Executor, values: typeof passwordResets.$inferInsert) {
  await tx.insert(passwordResets).values(values);
}

/** Spends one reset link; false when it was already spent. */
export async function spendPasswordReset(tx: Executor, { id, at }: { id: string; at: Date }) {
  const [spent] = await tx
    .update(passwordResets)
    .set({ usedAt: at })
    .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  return Boolean(spent);
}

/** Whether a live user signs in with this email (any letter case): in the account, or in any when no account is named. */
export async function findLiveUserIdByEmail(executor: Executor, { accountId, email }: { accountId?: string; email: string }) {
  const [row] = await executor
    .select({ id: users.id })
    .from(users)
    .where(and(accountId === undefined ? undefined : eq(users.accountId, accountId), sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/** The account's name (undefined for an unknown account). */
export async function findAccountName(executor: Executor, { accountId }: { accountId: string }) {
  const [row] = await executor.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row?.name;
}

export async function insertInvitation(tx: Executor, values: typeof invitations.$inferInsert) {
  await tx.insert(invitations).values(values);
}

/** The account's invitations not accepted yet, newest first, each with who sent it (unless deleted). */
export async function findPendingInvitations(db: Executor, { accountId, limit }: { accountId: string; limit: number }) {
  return db
    .select({ invitation: invitations, inviter: { id: users.id, name: users.name } })
    .from(invitations)
    .leftJoin(users, and(eq(users.id, invitations.invitedBy), isNull(users.deletedAt)))
    .where(and(eq(invitations.accountId, accountId), isNull(invitations.acceptedAt)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(limit);
}

const pending = (accountId: string, id: string) => and(eq(invitations.id, id), eq(invitations.accountId, accountId), isNull(invitations.acceptedAt));

/** Deletes an invitation of the account not accepted yet; false when there is none. */
export async function deletePendingInvitation(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [gone] = await tx.delete(invitations).where(pending(accountId, id)).returning({ id: invitations.id });
  return Boolean(gone);
}

/** Updates an invitation of the account not accepted yet and returns it (undefined when there is none). */
export async function updatePendingInvitation(tx: Executor, { accountId, id, set }: { accountId: string; id: string; set: Partial<typeof invitations.$inferInsert> }) {
  const [row] = await tx.update(invitations).set(set).where(pending(accountId, id)).returning();
  return row;
}

/** An invitation by the hash of its token, with its account's name. */
export async function findInvitationByTokenHash(db: Executor, { tokenHash }: { tokenHash: string }) {
  const [row] = await db
    .select({ invitation: invitations, accountName: accounts.name })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .where(eq(invitations.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Marks an invitation accepted by `userId`, once; false when it already was. */
export async function acceptPendingInvitation(tx: Executor, { id, userId, at }: { id: string; userId: string; at: Date }) {
  const [spent] = await tx
    .update(invitations)
    .set({ acceptedAt: at, acceptedUserId: userId })
    .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id });
  return Boolean(spent);
}

/** Of these ids, those of live users of the account. */
export async function findLiveUserIds(executor: Executor, { accountId, ids }: { accountId: string; ids: string[] }) {
  const rows = await executor
    .select({ id: users.id })
    .from(users)
    .where(and(live(accountId), inArray(users.id, ids)));
  return rows.map((row) => row.id);
}
