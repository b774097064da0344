import { ApiError, ForbiddenError } from "@/lib/platform/errors";
import { roleAllows, type Scope } from "./scopes";
import type { AuthContext } from "./tokens";

/**
 * The owner's current role must allow the scope (a demoted user loses admin powers on the
 * tokens they hold: forbidden), and then the token must hold it (insufficient_scope).
 */
export function authorize(ctx: Pick<AuthContext, "user" | "token">, scope: Scope) {
  if (!roleAllows(ctx.user.role, scope)) {
    throw new ForbiddenError(`The ${ctx.user.role} role does not allow ${scope}.`, [
      { path: "scope", message: `role ${ctx.user.role} does not allow ${scope}`, scope },
    ]);
  }
  if (!ctx.token.scopes.includes(scope)) {
    // The bearer challenge names the scope the token would need.
    throw new ApiError(403, "insufficient_scope", `This token lacks the ${scope} scope.`, [{ path: "scope", message: `requires ${scope}`, scope }], {
      "WWW-Authenticate": `Bearer realm="chorus", error="insufficient_scope", scope="${scope}"`,
    });
  }
}
