import "server-only";
import { z } from "zod";
import type { Executor } from "@/db";
import { consumeLoginAttempt, forgiveLoginAttempt, type RateLimitState, rateLimitHeaders } from "@/lib/platform/rate-limit";
import { ApiError, UnauthenticatedError } from "@/lib/platform/errors";
import { presentUser } from "@/lib/auth/user-identity";
import { checkSecondFactor } from "./mfa";
import { createSession, verifyCredentials } from "./sessions";
import { recordSignIn, recordSignInFailure } from "./sign-in-audit";

export const loginInput = z.object({
  email: z.string().trim().min(1, "is required").max(254),
  password: z.string().min(1, "is required").max(200),
  otp: z
    .string()
    .trim()
    .min(1, "is required")
    .max(64)
    .optional()
    .meta({ description: "With two-factor sign-in on: the 6-digit code of the authenticator app, or a recovery code (each works once)." }),
});

/**
 * POST /v1/auth/login: the same 401 whether the email exists or not. `onLimit` receives the
 * sign-in budget (per address and email) for the RateLimit headers of every answer.
 */
export async function loginWithPassword(
  db: Executor,
  {
  email,
  password,
  otp,
  ip,
  onLimit = () => {},
}: z.infer<typeof loginInput> & { ip: string; onLimit?: (state: RateLimitState) => void },
) {
  const limit = await consumeLoginAttempt({ ip, email });
  onLimit(limit);
  if (limit.limited) {
    throw new ApiError(429, "rate_limited", `Too many sign-in attempts. Retry in ${limit.resetSeconds} s.`, undefined, rateLimitHeaders(limit));
  }
  const user = await verifyCredentials(db, { email, password });
  if (!user) {
    await recordSignInFailure(db, { email });
    throw new UnauthenticatedError("unauthenticated", "Wrong email or password.");
  }
  const secondFactor = await checkSecondFactor(db, { user, otp }).catch(async (error: unknown) => {
    if (error instanceof ApiError && error.code === "invalid_otp") await recordSignInFailure(db, { email });
    throw error;
  });
  const forgiven = await forgiveLoginAttempt({ ip, email });
  if (forgiven) onLimit(forgiven);
  const session = await createSession(db, { user, secondFactor });
  await recordSignIn(db, { user });
  return { token: session.token, token_type: "session" as const, expires_at: session.expiresAt.toISOString(), user: presentUser(user) };
}
