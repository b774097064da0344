import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { isDatabaseUnavailable, loggable, ServiceUnavailableError, zodDetails } from "@/lib/platform/errors";
import { FIELD_ERRORS_NAMESPACE, type FieldErrorTranslator, fieldErrorSentence, type FieldIssue, wordsFieldErrors } from "@/lib/client/field-errors";
import { plainErrorMessage } from "@/lib/client/plain-errors";
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

/** What every server action answers: the data, or what went wrong in words a form can show. */
export type ActionResult<T = undefined> =
  | { ok: true; data: T }
  | { ok: false; status: number; code: string; message: string; fieldErrors: Record<string, string> };

export type ActionOptions = {
  /** Key field errors by the top-level field (`events` for `events.2`), for forms with one error per field. */
  topLevelFields?: boolean;
};

function fieldErrorsOf(details: FieldIssue[], { topLevelFields = false }: ActionOptions, t: FieldErrorTranslator | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of details) out[topLevelFields ? d.path.split(".")[0] : d.path] ??= fieldErrorSentence(d, t);
  return out;
}

/**
 * The words for field errors in the language of the person who submitted the form (null: English,
 * the schemas' own sentences; also outside a request, in tests and scripts).
 */
async function fieldErrorTranslator(): Promise<FieldErrorTranslator | null> {
  try {
    const { getLocale, getTranslations } = await import("next-intl/server");
    if (!wordsFieldErrors(await getLocale())) return null;
    return (await getTranslations(FIELD_ERRORS_NAMESPACE)) as unknown as FieldErrorTranslator;
  } catch {
    return null;
  }
}

/**
 * Runs a server action's work and turns domain errors into a result the form can show
 * (the same statuses and messages the API would answer with). Next.js redirects (a signed-out
 * visitor sent to the sign-in page) go on to Next.js.
 */
export async function runAction<T>(work: () => Promise<T>, options: ActionOptions = {}): Promise<ActionResult<T>> {
  try {
    // The caller's address and browser travel with the action for the audit log.
    return { ok: true, data: await withRequestInfo(await actionRequestInfo(), work) };
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof ApiError) {
      // Forms show people sentences, not wire names (`data: must be a PDF…`).
      const details = (error.details ?? []) as FieldIssue[];
      const t = details.length > 0 ? await fieldErrorTranslator() : null;
      // A refused field reads in the submitter's language, in the message as under the field.
      const message = t && error.code === "validation_error" ? details.map((d) => fieldErrorSentence(d, t)).join(" ") : plainErrorMessage(error.message);
      return { ok: false, status: error.status, code: error.code, message, fieldErrors: fieldErrorsOf(details, options, t) };
    }
    if (error instanceof z.ZodError) {
      const details = zodDetails(error) as FieldIssue[];
      const t = await fieldErrorTranslator();
      return {
        ok: false,
        status: 400,
        code: "validation_error",
        message: details.map((d) => fieldErrorSentence(d, t)).join(" "),
        fieldErrors: fieldErrorsOf(details, options, t),
      };
    }
    if (isDatabaseUnavailable(error)) {
      console.warn(`server action: database unavailable: ${loggable(error)}`);
      return { ok: false, status: 503, code: new ServiceUnavailableError().code, message: "Chorus can’t reach its database right now — retrying. Nothing was saved; what you entered is still here.", fieldErrors: {} };
    }
    // By name and code only: a raw error can carry emails, password hashes or message text.
    console.error(`server action failed: ${loggable(error)}`);
    return { ok: false, status: 500, code: "internal_error", message: "Something went wrong on our side. Try again.", fieldErrors: {} };
  }
}
