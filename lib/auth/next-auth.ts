import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { clientAddress } from "@/lib/api/client-address";
import { consumeLoginAttempt, forgiveLoginAttempt } from "@/lib/api/rate-limit";
import { getEnv } from "@/lib/env";
import { loggable } from "@/lib/errors";
import { createSession, verifyCredentials } from "./sessions";
import { SESSION_LIFETIME_MS } from "./tokens";

class TooManyAttempts extends CredentialsSignin {
  code = "rate_limited";
}

const credentials = z.object({ email: z.string().min(1).max(254), password: z.string().min(1).max(200) });

// Lazy so the build never reads the environment; next-auth calls this per request.
export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
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
      credentials: { email: {}, password: {} },
      async authorize(raw, request) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const ip = clientAddress(request);
        const limit = await consumeLoginAttempt({ ip, email: parsed.data.email });
        if (limit.limited) throw new TooManyAttempts();
        const user = await verifyCredentials(parsed.data);
        if (!user) return null;
        await forgiveLoginAttempt({ ip, email: parsed.data.email });
        const session = await createSession({ user });
        return { id: user.id, name: user.name, email: user.email, tid: session.id, acc: user.accountId };
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
}));
