// One error style (STYLE habit 3): services throw these; http/error-handler.ts maps them to
// the spec's envelope `{error: 1, message, code}` with the status table of decisions §1.

/** An error a client may see: a status, a stable machine code and a human message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = new.target.name
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super(400, 'validation_failed', message)
  }

  /** `field` broke `rule`, e.g. `ValidationError.field('slug', 'must be 3 to 64 characters')`. */
  static field(field: string, rule: string): ValidationError {
    return new ValidationError(`The field "${field}" ${rule}.`)
  }
}

/** A uniqueness rule was broken; decisions §1 answers these with 400. */
export class DuplicateError extends AppError {
  constructor(message: string) {
    super(400, 'duplicate', message)
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, 'not_found', message)
  }

  /** `NotFoundError.of('Campaign')` → "Campaign not found. Please try again." */
  static of(resource: string): NotFoundError {
    return new NotFoundError(`${resource} not found. Please try again.`)
  }

  static endpoint(): NotFoundError {
    const error = new NotFoundError('Endpoint not found.')
    return error
  }
}

export class AuthenticationError extends AppError {
  constructor(message: string, code: string) {
    super(401, code, message)
  }

  static missingKey(): AuthenticationError {
    return new AuthenticationError('A valid API key is required to use this service.', 'invalid_api_key')
  }

  static expiredKey(): AuthenticationError {
    return new AuthenticationError('This API key has expired.', 'expired_api_key')
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to access this endpoint.', code = 'forbidden') {
    super(403, code, message)
  }

  /** The account's plan allows no more records of this kind. */
  static planLimit(resource: string, limit: number): ForbiddenError {
    return new ForbiddenError(`Your plan allows at most ${limit} ${resource}. Delete one or upgrade your plan.`, 'plan_limit_reached')
  }
}

export class RateLimitError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too Many API Requests.', { 'retry-after': String(retryAfterSeconds) })
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'The service is temporarily unavailable. Please try again shortly.') {
    super(503, 'service_unavailable', message)
  }
}
