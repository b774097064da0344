import { z } from "zod";
import { ApiError, type ErrorDetail, isDatabaseUnavailable, isUniqueViolation, loggable, ServiceUnavailableError, sqlState, zodDetails } from "@/lib/platform/errors";

// The error body of /v1 (and of the app's own JSON routes) and the mapping of every
// failure onto it.

function errorBody(requestId: string, code: string, message: string, details?: ErrorDetail[]) {
  return { error: { code, message, ...(details && details.length ? { details } : {}) }, request_id: requestId };
}

export function errorResponse(
  requestId: string,
  status: number,
  code: string,
  message: string,
  details?: ErrorDetail[],
  headers: Record<string, string> = {},
) {
  return Response.json(errorBody(requestId, code, message, details), {
    status,
    headers: { "X-Request-Id": requestId, ...headers },
  });
}

/** A 400 whose message names the first invalid field. */
export function validationError(details: ErrorDetail[]) {
  const first = details[0];
  return new ApiError(400, "validation_error", first ? `${first.path}: ${first.message}` : "The request is not valid.", details);
}

/**
 * The error of a body that failed its schema: a file over the network's limit for its kind (an
 * issue marked `params.code: "media_too_large"`) is a 413 `media_too_large` naming the limit;
 * anything else a 400 `validation_error`. Every issue is listed in `details` either way.
 */
export function bodyError(error: z.ZodError) {
  const details = zodDetails(error);
  const tooLarge = error.issues.findIndex((issue) => issue.code === "custom" && (issue.params as { code?: unknown } | undefined)?.code === "media_too_large");
  if (tooLarge < 0) return validationError(details);
  const first = details[tooLarge];
  return new ApiError(413, "media_too_large", `${first.path}: ${first.message}`, details);
}

// character_not_in_repertoire / untranslatable_character: a NUL (or broken text) a check missed.
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

/** Any thrown value as the documented error response; the unexpected ones are logged by name and code only. */
export function errorToResponse(error: unknown, requestId: string): Response {
  if (error instanceof ApiError) {
    return errorResponse(requestId, error.status, error.code, error.message, error.details, error.headers);
  }
  if (error instanceof z.ZodError) {
    const e = bodyError(error);
    return errorResponse(requestId, e.status, e.code, e.message, e.details);
  }
  const state = sqlState(error);
  if (state && UNSTORABLE_TEXT.has(state)) {
    return errorResponse(requestId, 400, "validation_error", "The request holds a character that cannot be stored (such as NUL).", [
      { path: "body", message: "must not contain a NUL character" },
    ]);
  }
  // A row created at the same time by another request won the race.
  if (isUniqueViolation(error)) {
    console.warn(`[${requestId}] conflicting write: ${loggable(error)}`);
    return errorResponse(requestId, 409, "conflict", "The request conflicts with a record created at the same time. Check the current state and retry.");
  }
  // The database is down or restarting: the client may retry the same request, and is told when.
  if (isDatabaseUnavailable(error)) {
    console.warn(`[${requestId}] database unavailable: ${loggable(error)}`);
    const e = new ServiceUnavailableError();
    return errorResponse(requestId, e.status, e.code, e.message, undefined, e.headers);
  }
  // The detail goes to the log with the request id; the client gets neither stack nor SQL.
  console.error(`[${requestId}] unhandled error: ${loggable(error)}`);
  return errorResponse(requestId, 500, "internal_error", "Something went wrong on our side. Try again later.");
}
