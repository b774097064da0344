import "@/lib/server/wiring";
import { z } from "zod";
import { loggable, zodDetails } from "@/lib/platform/errors";
import { plainErrorMessage, plainFieldError } from "@/lib/client/plain-errors";
import { ApiError } from "@/lib/platform/errors";
import { type RequestInfo, requestInfoOf, withRequestInfo } from "@/lib/platform/http/request-info";

async function actionRequestInfo(): Promise<RequestInfo> {
  try {
    const { headers } = await import("next/headers");
    return requestInfoOf(new Request("http://action.local", { headers: await headers() }));
  } catch {
    // Called outside a request (tests, scripts): nobody to name.
    return { ip: null, userAgent: null };
  }
}

export type ActionResult<T = undefined> =
  | { ok: true; data: T }
  | { ok: false; status: number; message: string; fieldErrors: Record<string, string> };

/**
 * Runs a server action's work and turns domain errors into a result the form can show
 * (the same statuses and messages the API would answer with).
 */
export async function runAction<T>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    // The caller's address and browser travel with the action for the audit log.
    return { ok: true, data: await withRequestInfo(await actionRequestInfo(), work) };
  } catch (error) {
    if (error instanceof ApiError) {
      // Forms show people sentences, not wire names (`data: must be a PDF…`).
      const fieldErrors = Object.fromEntries((error.details ?? []).map((d) => [d.path, plainFieldError(d.path, d.message)]));
      return { ok: false, status: error.status, message: plainErrorMessage(error.message), fieldErrors };
    }
    if (error instanceof z.ZodError) {
      const details = zodDetails(error);
      return {
        ok: false,
        status: 400,
        message: details.map((d) => plainFieldError(d.path, d.message)).join(" "),
        fieldErrors: Object.fromEntries(details.map((d) => [d.path, plainFieldError(d.path, d.message)])),
      };
    }
    // By name and code only: a raw error can carry emails, password hashes or message text.
    console.error(`server action failed: ${loggable(error)}`);
    return { ok: false, status: 500, message: "Something went wrong on our side. Try again.", fieldErrors: {} };
  }
}
