import "server-only";
import { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import type { Executor } from "@/db";
import { clientAddress } from "@/lib/platform/http/client-address";
import { consumeLoginAttempt, forgiveLoginAttempt } from "@/lib/platform/rate-limit";
import { getEnv } from "@/lib/platform/env";
import { requestInfoOf, withRequestInfo } from "@/lib/platform/http/request-info";
import { secondFactorNeeded, verifySecondFactor } from "./mfa";
import { loggable } from "@/lib/platform/errors";
import { createSession, verifyCredentials } from "./sessions";
import { recordSignIn, recordSignInFailure } from "./sign-in-audit";
import { SESSION_LIFETIME_MS } from "./tokens";

class TooManyAttempts extends CredentialsSignin {
  code = "rate_limited";
}

class SecondFactorRequired extends CredentialsSignin {
  code = "mfa_required";
}

class WrongSecondFactor extends CredentialsSignin {
  code = "invalid_otp";
}

const credentials = z.object({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(200),
  otp: z.string().trim().max(64).optional().transform((v) => v || undefined),
});

/**
 * The browser sign-in's configuration, reading and writing through `db` (sign-in comes before
 * any verb context). lib/server/next-auth.ts hands it the pool and makes the handlers.
 */
export const authConfig = (db: Executor): NextAuthConfig => ({
  secret: getEnv().AUTH_SECRET,
  trustHost: true,
  // By name only: next-auth's own messages can quote the request (emails) or the cause.
  logger: {
    error: (error) => console.error(`auth: ${loggable(error)}`),
    warn: (code) => console.warn(`auth: ${code}`),
    debug: () => {},
  },
  pages: { signIn: "/login" },
  session: { strategy: "jwt", maxAge: SESSION_LIFETIME_MS / 1000, updateAge: 15 * 60 },
  providers: [
    Credentials({
      credentials: { email: {}, password: {}, otp: {} },
      async authorize(raw, request) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const ip = clientAddress(request);
        const limit = await consumeLoginAttempt({ ip, email: parsed.data.email });
        if (limit.limited) throw new TooManyAttempts();
        return withRequestInfo(requestInfoOf(request), async () => {
          const user = await verifyCredentials(db, parsed.data);
          if (!user) {
            await recordSignInFailure(db, { email: parsed.data.email });
            return null;
          }
          // With two-factor sign-in on, the password alone is not enough. A user whose account
          // requires it but who has not set it up signs in and is taken to the set-up.
          const secondFactor = (await secondFactorNeeded(db, { userId: user.id, accountId: user.accountId })) === "code";
          if (secondFactor) {
            if (!parsed.data.otp) throw new SecondFactorRequired();
            if (!(await verifySecondFactor(db, { user, otp: parsed.data.otp }))) {
              await recordSignInFailure(db, { email: parsed.data.email });
              throw new WrongSecondFactor();
            }
          }
          await forgiveLoginAttempt({ ip, email: parsed.data.email });
          const session = await createSession(db, { user, secondFactor });
          await recordSignIn(db, { user });
          return { id: user.id, name: user.name, email: user.email, tid: session.id, acc: user.accountId };
        });
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        const u = user as { tid?: string; acc?: string };
        token.tid = u.tid;
        token.acc = u.acc;
      }
      return token;
    },
  },
});
