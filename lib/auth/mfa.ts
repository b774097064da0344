import "server-only";
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { randomBytes } from "node:crypto";
import { getDb } from "@/db";
import { accounts, apiTokens, mfaRecoveryCodes, userMfa, users } from "@/db/schema";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import { ApiError, ConflictError, invalidField } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { hashSecret } from "@/lib/platform/crypto/secret-hash";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/seal";
import { announceAuthChange } from "./token-cache";

const PERIOD = 30;
const RECOVERY_CODE_COUNT = 10;
const FIELD = "mfa_secret";
// Every /v1 401 carries the bearer challenge.
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="chorus", error="invalid_token", error_description="a second factor is required"' };

type Who = { accountId: string; user: { id: string; name: string; email: string } };

function totpFor(secretBase32: string, email: string) {
  return new TOTP({ issuer: "Chorus", label: email, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });
}

async function readMfa(userId: string) {
  const [row] = await getDb().select().from(userMfa).where(eq(userMfa.userId, userId)).limit(1);
  return row ?? null;
}

/** Whether the user signs in with a second factor, and how many recovery codes are left. */
export async function mfaStatus({ userId }: { userId: string }) {
  const row = await readMfa(userId);
  if (!row?.enabledAt) return { enabled: false as const, recoveryCodesLeft: 0 };
  const [left] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return { enabled: true as const, enabledAt: row.enabledAt, recoveryCodesLeft: left.n };
}

/** Starts enrolment: a new secret, kept sealed until the user confirms one code from it. */
export async function startMfaEnrolment({ ctx }: { ctx: Who }) {
  const existing = await readMfa(ctx.user.id);
  if (existing?.enabledAt) throw new ConflictError("Two-factor sign-in is already on. Turn it off first to enrol another device.");
  const secret = new Secret({ size: 20 }).base32;
  const secretEnc = encryptSecret({ plaintext: secret, accountId: ctx.accountId, field: `${FIELD}:${ctx.user.id}` });
  await getDb()
    .insert(userMfa)
    .values({ userId: ctx.user.id, accountId: ctx.accountId, secretEnc, createdAt: new Date() })
    .onConflictDoUpdate({ target: userMfa.userId, set: { secretEnc, enabledAt: null, lastUsedStep: null, createdAt: new Date() } });
  return { secret, uri: totpFor(secret, ctx.user.email).toString() };
}

function recoveryCode(): string {
  const raw = randomBytes(8).toString("hex"); // 16 hex characters, shown as xxxx-xxxx-xxxx-xxxx
  return raw.match(/.{4}/g)!.join("-");
}

const normaliseRecovery = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, "");

/**
 * The time step a code belongs to, or null when it is wrong, or was already used (a code
 * works once, even within its 30 s). One step of clock drift either way is accepted.
 */
function acceptedStep(totp: TOTP, code: string, lastUsedStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = Date.now();
  const delta = totp.validate({ token: code, window: 1, timestamp: now });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  return lastUsedStep !== null && step <= lastUsedStep ? null : step;
}

/**
 * Confirms enrolment with one code; answers the 10 one-time recovery codes, shown only now.
 * The session it was confirmed in (`sessionId`) has proved the second factor.
 */
export async function confirmMfaEnrolment({ ctx, code, sessionId }: { ctx: Who; code: string; sessionId?: string }) {
  const row = await readMfa(ctx.user.id);
  if (!row) throw new ConflictError("Start the set-up first.");
  if (row.enabledAt) throw new ConflictError("Two-factor sign-in is already on.");
  const secret = decryptSecret({ stored: row.secretEnc, accountId: ctx.accountId, field: `${FIELD}:${ctx.user.id}` });
  if (!secret) throw new ConflictError("The set-up expired. Start again.");
  const step = acceptedStep(totpFor(secret, ctx.user.email), code.replace(/\s/g, ""), null);
  if (step === null) throw invalidField("code", "does not match your authenticator app: enter the code it shows now");
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  const now = new Date();
  await getDb().transaction(async (tx) => {
    await tx.update(userMfa).set({ enabledAt: now, lastUsedStep: step }).where(eq(userMfa.userId, ctx.user.id));
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, ctx.user.id));
    await tx.insert(mfaRecoveryCodes).values(codes.map((c) => ({ id: newId("recoveryCode", now), userId: ctx.user.id, codeHash: hashSecret(normaliseRecovery(c)), createdAt: now })));
    if (sessionId) {
      await tx
        .update(apiTokens)
        .set({ secondFactorAt: now })
        .where(and(eq(apiTokens.id, sessionId), eq(apiTokens.userId, ctx.user.id), eq(apiTokens.kind, "session")));
    }
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "mfa.enabled", target: { type: "user", id: ctx.user.id } });
    await announceAuthChange(tx);
  });
  return { recoveryCodes: codes };
}

/**
 * Turns the second factor off: by the user with a current code (or recovery code), or by an
 * administrator for a user who lost their device (`byAdmin`). Not while the account requires it,
 * unless an administrator does it so the user can enrol again.
 */
export async function disableMfa({ ctx, userId, code, byAdmin = false }: { ctx: Who; userId: string; code?: string; byAdmin?: boolean }) {
  if (!byAdmin) {
    const [account] = await getDb().select({ requireMfa: accounts.requireMfa }).from(accounts).where(eq(accounts.id, ctx.accountId)).limit(1);
    if (account?.requireMfa) throw new ConflictError("Your account requires two-factor sign-in; it cannot be turned off.");
    const ok = await verifySecondFactor({ user: { id: userId, accountId: ctx.accountId, email: ctx.user.email }, otp: code ?? "" });
    if (!ok) throw invalidField("code", "is wrong or was already used");
  }
  await getDb().transaction(async (tx) => {
    const deleted = await tx.delete(userMfa).where(and(eq(userMfa.userId, userId), eq(userMfa.accountId, ctx.accountId))).returning({ userId: userMfa.userId });
    if (!deleted.length) return;
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "mfa.disabled", target: { type: "user", id: userId } });
    await announceAuthChange(tx);
  });
}

/**
 * Checks a sign-in's second factor: a current TOTP code (each works once) or an unused
 * recovery code (spent now). False when it is wrong.
 */
export async function verifySecondFactor({ user, otp }: { user: { id: string; accountId: string; email: string }; otp: string }): Promise<boolean> {
  const row = await readMfa(user.id);
  if (!row?.enabledAt) return false;
  const given = otp.replace(/\s/g, "");
  if (/^\d{6}$/.test(given)) {
    const secret = decryptSecret({ stored: row.secretEnc, accountId: user.accountId, field: `${FIELD}:${user.id}` });
    if (!secret) return false;
    const step = acceptedStep(totpFor(secret, user.email), given, row.lastUsedStep);
    if (step === null) return false;
    // Conditional, so two sign-ins racing with the same code cannot both pass.
    const won = await getDb()
      .update(userMfa)
      .set({ lastUsedStep: step })
      .where(and(eq(userMfa.userId, user.id), or(isNull(userMfa.lastUsedStep), lt(userMfa.lastUsedStep, step))))
      .returning({ userId: userMfa.userId });
    return won.length === 1;
  }
  const spent = await getDb()
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(mfaRecoveryCodes.userId, user.id), eq(mfaRecoveryCodes.codeHash, hashSecret(normaliseRecovery(given))), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ id: mfaRecoveryCodes.id });
  if (!spent.length) return false;
  const [named] = await getDb().select({ name: users.name }).from(users).where(eq(users.id, user.id)).limit(1);
  await recordAudit(null, { accountId: user.accountId, actor: { type: "user", id: user.id, name: named?.name ?? null }, action: "mfa.recovery_code_used", target: { type: "user", id: user.id } });
  return true;
}

/** What sign-in needs beyond the password: nothing, a code, or enrolment the account requires. */
export async function secondFactorNeeded({ userId, accountId }: { userId: string; accountId: string }): Promise<"none" | "code" | "enrolment"> {
  const [row] = await getDb()
    .select({ enabledAt: userMfa.enabledAt, requireMfa: accounts.requireMfa })
    .from(accounts)
    .leftJoin(userMfa, eq(userMfa.userId, userId))
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (row?.enabledAt) return "code";
  return row?.requireMfa ? "enrolment" : "none";
}

/**
 * The sign-in step after a correct password (API and browser): 401 `mfa_required` until `otp`
 * is given, 401 `invalid_otp` when it is wrong or reused.
 */
export async function checkSecondFactor({ user, otp }: { user: { id: string; accountId: string; email: string }; otp?: string }): Promise<boolean> {
  const needed = await secondFactorNeeded({ userId: user.id, accountId: user.accountId });
  if (needed === "none") return false;
  if (needed === "enrolment") {
    throw new ApiError(403, "mfa_enrollment_required", "Your account requires two-factor sign-in: sign in in the browser and set it up in Settings → Account first.");
  }
  if (!otp) {
    throw new ApiError(401, "mfa_required", "Two-factor sign-in is on: send the 6-digit code of your authenticator app (or a recovery code) as otp.", [
      { path: "otp", message: "is required" },
    ], CHALLENGE);
  }
  if (!(await verifySecondFactor({ user, otp }))) {
    throw new ApiError(401, "invalid_otp", "otp: the code is wrong or was already used.", [{ path: "otp", message: "is wrong or was already used" }], CHALLENGE);
  }
  return true;
}

/** The account-wide rule: every user must sign in with a second factor. */
export async function setMfaRequirement({ ctx, required }: { ctx: Who; required: boolean }) {
  await getDb().transaction(async (tx) => {
    await tx.update(accounts).set({ requireMfa: required }).where(eq(accounts.id, ctx.accountId));
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "mfa.requirement_changed", target: { type: "account", id: ctx.accountId } });
    await announceAuthChange(tx);
  });
}

export async function mfaRequired({ accountId }: { accountId: string }) {
  const [row] = await getDb().select({ requireMfa: accounts.requireMfa }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row?.requireMfa ?? false;
}

/** Who in the account signs in with a second factor (for Settings → Users). */
export async function mfaEnrolledUserIds({ accountId }: { accountId: string }): Promise<Set<string>> {
  const rows = await getDb()
    .select({ userId: userMfa.userId })
    .from(userMfa)
    .where(and(eq(userMfa.accountId, accountId), isNotNull(userMfa.enabledAt)));
  return new Set(rows.map((r) => r.userId));
}
