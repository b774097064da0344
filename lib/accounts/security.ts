import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { mfaRequired, mfaStatus, setMfaRequirement } from "@/lib/auth/mfa";
import { ConflictError, ForbiddenError } from "@/lib/platform/errors";
import type { SecuritySettings } from "./schemas";

type Caller = ServiceContext<"user">;

// The account's sign-in rules are an administrator's business, to read as well as to change.
function assertAdmin(ctx: Caller) {
  if (ctx.user.role !== "admin") throw new ForbiddenError("Only administrators can see or change the account's sign-in rules.");
}

/** `GET /v1/config/security` */
export async function getSecuritySettings({ ctx }: { ctx: Caller }): Promise<SecuritySettings> {
  assertAdmin(ctx);
  return { require_mfa: await mfaRequired(ctx) };
}

/**
 * `PUT /v1/config/security`: a change is recorded in the audit log (`mfa.requirement_changed`).
 * Requiring a second factor needs the administrator's own first: the credential making the call
 * would otherwise stop working at once, and set-up happens in the browser.
 */
export async function updateSecuritySettings({ ctx, input }: { ctx: Caller; input: SecuritySettings }): Promise<SecuritySettings> {
  assertAdmin(ctx);
  if (input.require_mfa && !(await mfaStatus(ctx.db, { userId: ctx.user.id })).enabled) {
    throw new ConflictError("Set up two-factor sign-in for yourself first (Settings → Account), then require it for everyone.");
  }
  if ((await mfaRequired(ctx)) !== input.require_mfa) await setMfaRequirement({ ctx, required: input.require_mfa });
  return { require_mfa: input.require_mfa };
}
