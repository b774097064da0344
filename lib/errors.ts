export type ErrorDetail = { path: string; message: string; [key: string]: unknown };

/** An error that maps onto the SPEC error body; domain verbs throw these. */
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
