import { revalidatePath } from "next/cache";
import { unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { requireAdmin, requireSession } from "@/lib/auth/current-user";
import type { AuthContext } from "@/lib/auth/tokens";
import type { SystemContext } from "@/lib/auth/context";
import { type RequestContext, systemContext, verbContext } from "./context";
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

/**
 * What a form kept by `useActionState` shows when its action failed: the errors under their
 * fields, and the message only when no field is to blame (as `useFormAction` does in the browser).
 */
export function failedFormState(result: Extract<ActionResult<unknown>, { ok: false }>): { error?: string; fieldErrors: Record<string, string> } {
  return { error: Object.keys(result.fieldErrors).length ? undefined : result.message, fieldErrors: result.fieldErrors };
}

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

/**
 * One server action, declared: who may call it, what its arguments must be, and which page to
 * refresh after it. Every form of the settings, sign-up and password pages is one of these:
 *
 *   export const saveX = action({ role: "admin", schema: xInput, revalidate: "/settings/x" }, (input, ctx) => saveXVerb({ ctx, input }));
 *
 * The caller is checked first (signed out: to the sign-in page; not an administrator: a 403
 * result), then the arguments are parsed (a refused field: a 400 result naming it in the
 * submitter's language), then the verb runs; only when it succeeds is the page refreshed.
 * Anything thrown becomes the same result the API would answer with (`runAction`).
 */

/** Who may call an action: administrators, any signed-in user, or anyone (sign-up and password links). */
type ActionRole = "admin" | "user" | "anyone";

/** What an action's verb acts for: the signed-in session (its account, user and credential) as a verb context. */
type ActionContext = RequestContext;

type Schemas = readonly z.ZodType[];
type Inputs<A extends Schemas> = { [K in keyof A]: z.input<A[K]> };
type Outputs<A extends Schemas> = { [K in keyof A]: z.output<A[K]> };

/** A page to refresh after the action succeeds: its path, or the layout at a path (and every page under it). */
type Revalidate = string | { layout: string };

type ActionSpec<R extends ActionRole, S extends z.ZodType | undefined, A extends Schemas | undefined> = {
  /** Default `user`: any signed-in user. */
  role?: R;
  /** A user who must still set up two-factor sign-in may call it (the set-up page's own actions). */
  allowEnrolment?: boolean;
  /** The action's one argument. */
  schema?: S;
  /** Or, for an action of several arguments (an id and the changes), one schema per argument. */
  args?: A;
  revalidate?: Revalidate;
} & ActionOptions;

type Input<S, A> = A extends Schemas ? Outputs<A> : S extends z.ZodType ? z.output<S> : undefined;
type Params<S, A> = A extends Schemas ? Inputs<A> : S extends z.ZodType ? [input: z.input<S>] : [];
/** Anyone: no caller, only the process's part of the verb context (the pool and the automation rules). */
type Ctx<R extends ActionRole> = R extends "anyone" ? SystemContext : ActionContext;

/** The context a verb runs with, built in one place: the session (account, acting user, credential) with the pool and the automation rules. */
function actionContext(session: AuthContext): ActionContext {
  return verbContext(session);
}

async function caller(role: ActionRole, allowEnrolment: boolean): Promise<ActionContext | SystemContext> {
  if (role === "anyone") return systemContext();
  // An agent calling an administrator's action directly (not through a page) is refused by `requireAdmin`.
  const { db } = systemContext();
  return actionContext(role === "admin" ? await requireAdmin(db) : await requireSession(db, { allowEnrolment }));
}

/** Each argument parsed by its own schema, so a refused field is named as the form names it. */
function parseArgs(schemas: Schemas, args: readonly unknown[]): unknown[] {
  const issues: z.core.$ZodIssue[] = [];
  const parsed = schemas.map((schema, i) => {
    const result = schema.safeParse(args[i]);
    if (!result.success) issues.push(...result.error.issues);
    return result.data;
  });
  if (issues.length > 0) throw new z.ZodError(issues);
  return parsed;
}

export function action<T, const R extends ActionRole = "user", S extends z.ZodType | undefined = undefined, const A extends Schemas | undefined = undefined>(
  spec: ActionSpec<R, S, A>,
  handler: (input: Input<S, A>, ctx: Ctx<R>) => Promise<T>,
): (...args: Params<S, A>) => Promise<ActionResult<T>> {
  const { role = "user", allowEnrolment = false, schema, args: argSchemas, revalidate, ...options } = spec;
  return (...args) =>
    runAction(async () => {
      const ctx = await caller(role, allowEnrolment);
      const input = argSchemas ? parseArgs(argSchemas, args) : schema ? schema.parse(args[0]) : undefined;
      const data = await handler(input as Input<S, A>, ctx as Ctx<R>);
      if (typeof revalidate === "string") revalidatePath(revalidate);
      else if (revalidate) revalidatePath(revalidate.layout, "layout");
      return data;
    }, options);
}

/**
 * A schema for a submitted form: `read` turns its fields into the input `schema` parses (text
 * fields as strings, repeated ones as lists); anything but a form is refused as invalid.
 */
export function formInput<S extends z.ZodType>(schema: S, read: (form: FormData) => unknown): z.ZodType<z.output<S>, FormData> {
  return z
    .instanceof(FormData)
    .transform(read)
    .pipe(schema as z.ZodType<z.output<S>, unknown>);
}

/** The id of a record an action changes (its own schema: an id the account does not hold is a 404 of the verb). */
export const recordId = z.string();

/** The named text fields of a form, each "" when absent. */
export function formText<K extends string>(form: FormData, ...names: K[]): Record<K, string> {
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "")])) as Record<K, string>;
}
