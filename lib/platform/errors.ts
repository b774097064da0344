import type { z } from "zod";

export type ErrorDetail = { path: string; message: string; [key: string]: unknown };

/** An error that maps onto the error body; domain verbs throw these. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export class ValidationError extends ApiError {
  constructor(details: ErrorDetail[], message = "The request is not valid.") {
    super(400, "validation_error", message, details);
  }
}

export const invalidField = (path: string, message: string) =>
  new ValidationError([{ path, message }], `${path}: ${message}`);

export class NotFoundError extends ApiError {
  constructor(what = "Resource") {
    super(404, "not_found", `${what} not found.`);
  }
}

export class ConflictError extends ApiError {
  constructor(message: string, code: "conflict" | "invalid_transition" = "conflict") {
    super(409, code, message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = "Your role does not allow this.", details?: ErrorDetail[]) {
    super(403, "forbidden", message, details);
  }
}

/** A 401; every one carries the bearer challenge `error="invalid_token"`, a missing token too. */
export class UnauthenticatedError extends ApiError {
  constructor(code: "unauthenticated" | "invalid_token", message: string) {
    super(401, code, message, undefined, {
      "WWW-Authenticate": `Bearer realm="chorus", error="invalid_token", error_description="${message.replace(/["\\]/g, "'")}"`,
    });
  }
}

/**
 * What a field's problem is, for a program (or an interface writing it in another language) rather
 * than a reader of `message`: the zod issue code and the few facts that word it.
 */
export type IssueParams = {
  /** What was measured: `string` (characters), `number`, `array` (items), `date`, `file`… */
  origin?: string;
  minimum?: number;
  maximum?: number;
  /** Whether the limit itself is allowed (`false`: strictly more / less than it). */
  inclusive?: boolean;
  /** The length must be exactly the limit. */
  exact?: boolean;
  /** The format the value did not match: `email`, `url`, `regex`, `uuid`, `datetime`… */
  format?: string;
  /** The type expected (`string`, `number`, `object`…). */
  expected?: string;
  /** The allowed values (for `invalid_value`), at most 20. */
  values?: (string | number | boolean | null)[];
  /** The number the value must be a multiple of. */
  divisor?: number;
};

const finite = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : typeof value === "bigint" ? Number(value) : undefined);

function paramsOf(issue: z.core.$ZodIssue): IssueParams {
  const raw = issue as unknown as Record<string, unknown>;
  const params: IssueParams = {};
  if (typeof raw.origin === "string") params.origin = raw.origin;
  const minimum = finite(raw.minimum);
  const maximum = finite(raw.maximum);
  if (minimum !== undefined) params.minimum = minimum;
  if (maximum !== undefined) params.maximum = maximum;
  if (typeof raw.inclusive === "boolean") params.inclusive = raw.inclusive;
  if (raw.exact === true) params.exact = true;
  if (typeof raw.format === "string") params.format = raw.format;
  if (typeof raw.expected === "string") params.expected = raw.expected;
  if (Array.isArray(raw.values)) {
    const values = raw.values.filter((v): v is string | number | boolean | null => v === null || ["string", "number", "boolean"].includes(typeof v));
    if (values.length > 0) params.values = values.slice(0, 20);
  }
  const divisor = finite(raw.divisor);
  if (divisor !== undefined) params.divisor = divisor;
  return params;
}

/**
 * Each zod issue as an error detail naming its field (`body` for the whole value), with the
 * issue's `code` (`too_small`, `too_big`, `invalid_format`, `invalid_type`, `invalid_value`…) and
 * its `params`, so an interface can say it in the reader's language; `message` stays English.
 */
export function zodDetails(error: z.ZodError, prefix: string[] = []): ErrorDetail[] {
  return error.issues.map((issue) => {
    const params = paramsOf(issue);
    return {
      path: [...prefix, ...issue.path.map(String)].join(".") || "body",
      message: issue.message,
      code: issue.code,
      ...(Object.keys(params).length > 0 ? { params } : {}),
    };
  });
}

type DatabaseFailure = { code?: unknown; message?: unknown; cause?: unknown };

/** The PostgreSQL error code (SQLSTATE) of a failed query, on PGlite and postgres.js alike. */
export function sqlState(error: unknown): string | undefined {
  for (let e = error as DatabaseFailure | undefined, depth = 0; e && typeof e === "object" && depth < 5; e = e.cause as DatabaseFailure, depth++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** unique_violation: the write lost a race with (or repeats) a row another write created. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";

/** Runs `work`; a write that breaks a unique index answers `conflict()` (a 409) instead, having written nothing. */
export async function conflictOnUnique<T>(work: () => Promise<T>, conflict: () => ApiError): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

/**
 * What the log may say about an unexpected error: its name, its code (SQLSTATE for a failed
 * query) and, for a query, the statement's first words (which table) — never a message, a
 * parameter or a stack, which can carry emails, password hashes, tokens or message text.
 * Matched by shape, not `instanceof`: a production build can hold several copies of a class.
 */
export function loggable(error: unknown): string {
  if (!error || typeof error !== "object") return `non-error ${typeof error}`;
  const e = error as { name?: unknown; code?: unknown; query?: unknown };
  const name = typeof e.name === "string" ? e.name.replace(/[^\w.-]/g, "").slice(0, 60) : "Error";
  const code = sqlState(error) ?? (typeof e.code === "string" && /^[\w.-]{1,40}$/.test(e.code) ? e.code : undefined);
  const query = typeof e.query === "string" ? queryName(e.query) : undefined;
  return [name, code && `code=${code}`, query && `query="${query}"`].filter(Boolean).join(" ");
}

/** "insert into users", "select from api_tokens": the statement's verb and first table, nothing else. */
function queryName(sqlText: string): string {
  const verb = /^\s*(\w+)/.exec(sqlText)?.[1]?.toLowerCase() ?? "query";
  const table = /\b(?:from|into|update|join)\s+"?([\w.]+)"?/i.exec(sqlText)?.[1];
  return table ? `${verb} ${table}` : verb;
}


/** How long a client is told to wait before retrying while the database cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** A 503: the database (or another store every request needs) cannot be reached; safe to retry. */
export class ServiceUnavailableError extends ApiError {
  constructor(message = "The service cannot reach its database right now. Nothing was changed; retry after the seconds in Retry-After.") {
    super(503, "service_unavailable", message, undefined, { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
  }
}

// Failures of the connection itself, not of a statement: the driver's own codes (postgres.js)
// and the operating system's for a refused, reset or unreachable address.
const CONNECTION_FAILURES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
// SQLSTATEs of a server that is shutting down, starting up or out of connections: class 08
// (connection exception), admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/**
 * Whether a failed query means the database could not be reached (stopped, restarting, the
 * network down) rather than that the statement was wrong: such a request may be retried as is.
 * The error and its causes (drizzle wraps the driver's error) are looked at by shape.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as DatabaseFailure | undefined, depth = 0; e && typeof e === "object" && depth < 5; e = e.cause as DatabaseFailure, depth++) {
    if (typeof e.code !== "string") continue;
    if (CONNECTION_FAILURES.has(e.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(e.code)) return e.code.startsWith("08") || UNAVAILABLE_STATES.has(e.code);
  }
  return false;
}
