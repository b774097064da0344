import "server-only";
import { Secret, TOTP } from "otpauth";
import { randomBytes } from "node:crypto";
import type { Executor } from "@/db";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import { ApiError, ConflictError, invalidField } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { hashSecret } from "@/lib/platform/crypto/secret-hash";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/seal";
import {
  accountRequiresMfa,
  countRecoveryCodesLeft,
  deleteMfa,
  enableMfa,
  findMfa,
  findSecondFactorState,
  findUserName,
  markSessionSecondFactor,
  selectMfaEnrolledUserIds,
  setAccountRequiresMfa,
  spendMfaStep,
  spendRecoveryCode,
  upsertMfaSecret,
} from "./store";
import { announceAuthChange } from "./token-cache";

const PERIOD = 30;
const RECOVERY_CODE_COUNT = 10;
const FIELD = "mfa_secret";
// Every /v1 401 carries the bearer challenge.
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="chorus", error="invalid_token", error_description="a second factor is required"' };

/** Who acts, with the executor their verbs run on. */
type Who = { accountId: string; user: { id: string; name: string; email: string }; db: Executor };

function totpFor(secretBase32: string, email: string) {
  return new TOTP({ issuer: "Chorus", label: email, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });
}

/** Whether the user signs in with a second factor, and how many recovery codes are left. */
export async function mfaStatus(db: Executor, { userId }: { userId: string }) {
  const row = await findMfa(db, userId);
  if (!row?.enabledAt) return { enabled: false as const, recoveryCodesLeft: 0 };
  return { enabled: true as const, enabledAt: row.enabledAt, recoveryCodesLeft: await countRecoveryCodesLeft(db, userId) };
}

/** Starts enrolment: a new secret, kept sealed until the user confirms one code from it. */
export async function startMfaEnrolment({ ctx }: { ctx: Who }) {
  const existing = await findMfa(ctx.db, ctx.user.id);
  if (existing?.enabledAt) throw new ConflictError("Two-factor sign-in is already on. Turn it off first to enrol another device.");
  const secret = new Secret({ size: 20 }).base32;
  const secretEnc = encryptSecret({ plaintext: secret, accountId: ctx.accountId, field: `${FIELD}:${ctx.user.id}` });
  await upsertMfaSecret(ctx.db, { userId: ctx.user.id, accountId: ctx.accountId, secretEnc, now: new Date() });
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
  const row = await findMfa(ctx.db, ctx.user.id);
  if (!row) throw new ConflictError("Start the set-up first.");
  if (row.enabledAt) throw new ConflictError("Two-factor sign-in is already on.");
  const secret = decryptSecret({ stored: row.secretEnc, accountId: ctx.accountId, field: `${FIELD}:${ctx.user.id}` });
  if (!secret) throw new ConflictError("The set-up expired. Start again.");
  const step = acceptedStep(totpFor(secret, ctx.user.email), code.replace(/\s/g, ""), null);
  if (step === null) throw invalidField("code", "does not match your authenticator app: enter the code it shows now");
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    await enableMfa(tx, {
      userId: ctx.user.id,
      at: now,
      step,
      codeHashes: codes.map((c) => hashSecret(normaliseRecovery(c))),
      newCodeId: () => newId("recoveryCode", now),
    });
    if (sessionId) await markSessionSecondFactor(tx, { sessionId, userId: ctx.user.id, at: now });
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
    if (await accountRequiresMfa(ctx.db, ctx.accountId)) throw new ConflictError("Your account requires two-factor sign-in; it cannot be turned off.");
    const ok = await verifySecondFactor(ctx.db, { user: { id: userId, accountId: ctx.accountId, email: ctx.user.email }, otp: code ?? "" });
    if (!ok) throw invalidField("code", "is wrong or was already used");
  }
  await ctx.db.transaction(async (tx) => {
    if (!(await deleteMfa(tx, { userId, accountId: ctx.accountId }))) return;
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "mfa.disabled", target: { type: "user", id: userId } });
    await announceAuthChange(tx);
  });
}

/**
 * Checks a sign-in's second factor: a current TOTP code (each works once) or an unused
 * recovery code (spent now). False when it is wrong.
 */
export async function verifySecondFactor(db: Executor, { user, otp }: { user: { id: string; accountId: string; email: string }; otp: string }): Promise<boolean> {
  const row = await findMfa(db, user.id);
  if (!row?.enabledAt) return false;
  const given = otp.replace(/\s/g, "");
  if (/^\d{6}$/.test(given)) {
    const secret = decryptSecret({ stored: row.secretEnc, accountId: user.accountId, field: `${FIELD}:${user.id}` });
    if (!secret) return false;
    const step = acceptedStep(totpFor(secret, user.email), given, row.lastUsedStep);
    if (step === null) return false;
    return spendMfaStep(db, { userId: user.id, step });
  }
  if (!(await spendRecoveryCode(db, { userId: user.id, codeHash: hashSecret(normaliseRecovery(given)), at: new Date() }))) return false;
  const name = await findUserName(db, user.id);
  await recordAudit(db, { accountId: user.accountId, actor: { type: "user", id: user.id, name }, action: "mfa.recovery_code_used", target: { type: "user", id: user.id } });
  return true;
}

/** What sign-in needs beyond the password: nothing, a code, or enrolment the account requires. */
export async function secondFactorNeeded(db: Executor, { userId, accountId }: { userId: string; accountId: string }): Promise<"none" | "code" | "enrolment"> {
  const row = await findSecondFactorState(db, { userId, accountId });
  if (row?.enabledAt) return "code";
  return row?.requireMfa ? "enrolment" : "none";
}

/**
 * The sign-in step after a correct password (API and browser): 401 `mfa_required` until `otp`
 * is given, 401 `invalid_otp` when it is wrong or reused.
 */
export async function checkSecondFactor(db: Executor, { user, otp }: { user: { id: string; accountId: string; email: string }; otp?: string }): Promise<boolean> {
  const needed = await secondFactorNeeded(db, { userId: user.id, accountId: user.accountId });
  if (needed === "none") return false;
  if (needed === "enrolment") {
    throw new ApiError(403, "mfa_enrollment_required", "Your account requires two-factor sign-in: sign in in the browser and set it up in Settings → Account first.");
  }
  if (!otp) {
    throw new ApiError(401, "mfa_required", "Two-factor sign-in is on: send the 6-digit code of your authenticator app (or a recovery code) as otp.", [
      { path: "otp", message: "is required" },
    ], CHALLENGE);
  }
  if (!(await verifySecondFactor(db, { user, otp }))) {
    throw new ApiError(401, "invalid_otp", "otp: the code is wrong or was already used.", [{ path: "otp", message: "is wrong or was already used" }], CHALLENGE);
  }
  return true;
}

/** The account-wide rule: every user must sign in with a second factor. */
export async function setMfaRequirement({ ctx, required }: { ctx: Who; required: boolean }) {
  await ctx.db.transaction(async (tx) => {
    await setAccountRequiresMfa(tx, { accountId: ctx.accountId, required });
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "mfa.requirement_changed", target: { type: "account", id: ctx.accountId } });
    await announceAuthChange(tx);
  });
}

export async function mfaRequired(ctx: { accountId: string; db: Executor }) {
  return accountRequiresMfa(ctx.db, ctx.accountId);
}

/** Who in the account signs in with a second factor (for Settings → Users). */
export async function mfaEnrolledUserIds(ctx: { accountId: string; db: Executor }): Promise<Set<string>> {
  return new Set(await selectMfaEnrolledUserIds(ctx.db, ctx.accountId));
}
