// One error style (STYLE habit 3): services throw these, each with a stable machine code and a
// human message, and know nothing of HTTP. The transport maps codes to statuses in one table
// (src/http/error-handler.ts, decisions §1).

/**
 * Every code a client may see in `{error: 1, message, code}`: the one list. The status of each is
 * in http/error-handler.ts (a table keyed by this type, so a code cannot be added without one), and
 * the OpenAPI document lists them as the envelope's `code` values.
 */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_json',
  'invalid_content_length',
  'bad_request',
  'duplicate',
  'domain_not_pointing',
  'domain_has_links',
  'plan_in_use',
  'webhook_disabled',
  'last_owner',
  'workspace_kept',
  'link_invalid',
  'link_expired',
  'wrong_password',
  'wrong_code',
  'invalid_api_key',
  'expired_api_key',
  'invalid_session',
  'invalid_credentials',
  'invalid_metrics_token',
  'csrf_failed',
  'forbidden',
  'second_factor_needed',
  'sso_required',
  'plan_limit_reached',
  'not_found',
  'aliases_exhausted',
  'body_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** An error a client may see: a stable machine code and a human message. */
export class AppError extends Error {
  /**
   * The request field the error is about, as the client sent it (`custom`, `geotarget.0.location`):
   * sent as the envelope's `field` so that a form can mark it. Absent when no single field is at fault.
   */
  readonly field: string | undefined

  constructor(
    readonly code: ErrorCode,
    message: string,
    field?: string,
  ) {
    super(message)
    this.name = new.target.name
    this.field = field
  }
}

export class ValidationError extends AppError {
  constructor(message: string, field?: string) {
    super('validation_failed', message, field)
  }

  /** `field` broke `rule`, e.g. `ValidationError.field('slug', 'must be 3 to 64 characters')`. */
  static field(field: string, rule: string): ValidationError {
    return new ValidationError(`The field "${field}" ${rule}.`, field)
  }

  /** The rule without its subject (`must be 3 to 64 characters`), for callers that name the field their own way (the CLI's `--slug`). */
  get rule(): string {
    const subject = this.field === undefined ? undefined : `The field "${this.field}" `
    return subject && this.message.startsWith(subject) ? this.message.slice(subject.length).replace(/\.$/, '') : this.message
  }
}

/** A uniqueness rule was broken (decisions §1 answers these with 400); `field` is the one that collides. */
export class DuplicateError extends AppError {
  constructor(message: string, field?: string) {
    super('duplicate', message, field)
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super('not_found', message)
  }

  /** `NotFoundError.of('Campaign')` → "Campaign not found. Please try again." */
  static of(resource: string): NotFoundError {
    return new NotFoundError(`${resource} not found. Please try again.`)
  }

  static endpoint(): NotFoundError {
    return new NotFoundError('Endpoint not found.')
  }
}

export class AuthenticationError extends AppError {
  static missingKey(): AuthenticationError {
    return new AuthenticationError('invalid_api_key', 'A valid API key is required to use this service.')
  }

  static expiredKey(): AuthenticationError {
    return new AuthenticationError('expired_api_key', 'This API key has expired.')
  }

  /** A session cookie that is unknown, revoked or past its expiry. */
  static invalidSession(): AuthenticationError {
    return new AuthenticationError('invalid_session', 'Your session has ended. Please sign in again.')
  }

  /** A session waiting for its second factor, ended by too many wrong codes (ADR 027). */
  static tooManyWrongCodes(): AuthenticationError {
    return new AuthenticationError('invalid_session', 'Too many wrong codes. Please sign in again.')
  }

  /** GET /metrics without the METRICS_TOKEN it is kept behind. */
  static metricsToken(): AuthenticationError {
    return new AuthenticationError('invalid_metrics_token', 'A valid metrics token is required: Authorization: Bearer <METRICS_TOKEN>.')
  }

  /** Sign-in refused; the same words whether the login or the password was wrong (no account probing). */
  static wrongCredentials(): AuthenticationError {
    return new AuthenticationError('invalid_credentials', 'The username, e-mail address or password is incorrect.')
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to access this endpoint.', code: ErrorCode = 'forbidden') {
    super(code, message)
  }

  /** A request on a session that did not prove it came from the dashboard (cross-site request forgery). */
  static crossSite(origin: string): ForbiddenError {
    return new ForbiddenError(`Requests signed in with a session must come from ${origin} and carry the header X-Linkwell-CSRF: 1.`, 'csrf_failed')
  }

  /** The account's plan allows no more records of this kind. */
  static planLimit(resource: string, limit: number): ForbiddenError {
    return new ForbiddenError(`Your plan allows at most ${limit} ${resource}. Delete one or upgrade your plan.`, 'plan_limit_reached')
  }

  /** A signed-in person opening an invitation sent to another e-mail address (issue 36). */
  static invitationForSomeoneElse(): ForbiddenError {
    return new ForbiddenError('This invitation was sent to another e-mail address than yours: sign in as the person it was sent to, or sign out and join as a new person.')
  }

  /** A session whose password was right, still waiting for the person's code (ADR 025). */
  static codeNeeded(): ForbiddenError {
    return new ForbiddenError('Finish signing in: enter a code from your authenticator app or a recovery code.', 'second_factor_needed')
  }

  /** A session of a workspace that requires a second factor, whose person has none yet (ADR 025). */
  static enrolmentNeeded(): ForbiddenError {
    return new ForbiddenError('This workspace requires two-factor sign-in: set it up on the Security page first.', 'second_factor_needed')
  }

  /** What only a signed-in person may do (not a key: it has no password and no second factor of its own). */
  /** A password session in a workspace that requires single sign-on (ADR 033). */
  static singleSignOnRequired(): ForbiddenError {
    return new ForbiddenError('This workspace signs in with single sign-on: use the "Sign in with" button of your identity provider.', 'sso_required')
  }

  static sessionOnly(): ForbiddenError {
    return new ForbiddenError('Only a signed-in session can do this; an API key cannot.')
  }
}

export class RateLimitError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too Many API Requests.',
  ) {
    super('rate_limited', message)
  }

  /** Too many wrong passwords for one account or from one address. */
  static signIn(retryAfterSeconds: number): RateLimitError {
    return new RateLimitError(retryAfterSeconds, 'Too many failed sign-in attempts. Please wait before trying again.')
  }

  /** Too many mails asked for one address or from one client address (resets, sign-ups: issue 38). */
  static mail(retryAfterSeconds: number): RateLimitError {
    return new RateLimitError(retryAfterSeconds, 'Too many requests for e-mails. Please wait before trying again.')
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'The service is temporarily unavailable. Please try again shortly.') {
    super('service_unavailable', message)
  }
}

/** A request that breaks a rule of the record's state rather than of a field (a domain still in use). */
export class ConflictError extends AppError {
  /** A second-factor code (TOTP or recovery code) that is wrong, or already used (400: the form's field). */
  static wrongCode(message = 'The code is incorrect or has already been used.'): ConflictError {
    return new ConflictError('wrong_code', message, 'code')
  }

  /** A TOTP code of a time step already used: refused, so an overheard code cannot be played again. */
  static replayedCode(): ConflictError {
    return ConflictError.wrongCode('This code has already been used. Wait for the next one from your authenticator app.')
  }

  /** A password change whose current password is wrong (400: the form's field, not the session). */
  static wrongCurrentPassword(): ConflictError {
    return new ConflictError('wrong_password', 'The current password is incorrect.', 'current')
  }

  /** The account has never had a password, so there is no current one to confirm. */
  static noPasswordYet(): ConflictError {
    return new ConflictError('wrong_password', 'This account has no password yet. Set one with PUT /api/account/update or `linkwell account password`.', 'current')
  }

  static domainNotPointing(): ConflictError {
    return new ConflictError('domain_not_pointing', 'The domain is not pointing to our server.', 'domain')
  }

  /** A plan some account is on: deleting it would leave them without one. */
  static planInUse(accounts: number): ConflictError {
    return new ConflictError('plan_in_use', `This plan still has ${accounts} account${accounts === 1 ? '' : 's'}. Move them to another plan first.`)
  }

  /** A workspace must keep an owner: its last one cannot leave, be removed or be demoted. */
  static lastOwner(): ConflictError {
    return new ConflictError('last_owner', 'A workspace must keep at least one owner. Make another member an owner first.', 'role')
  }

  /** A workspace that cannot be deleted: the instance's administration, or its owner's only workspace. */
  static workspaceKept(message: string): ConflictError {
    return new ConflictError('workspace_kept', message)
  }

  static domainHasLinks(): ConflictError {
    return new ConflictError('domain_has_links', 'This domain still has short links. Delete them or move them to another domain first.')
  }

  /** Every alias drawn for a new record was reserved or taken (modules/aliases/alias.service.ts). */
  /** A mailed link (reset, confirmation) whose token is none of ours: cut short or altered (issue 38). */
  static linkInvalid(): ConflictError {
    return new ConflictError('link_invalid', 'This link is not valid: it may have been cut short or altered. Open it again from the e-mail, or ask for a new one.', 'token')
  }

  /** A mailed link that was used already or has run out (410: it existed and is gone for good). */
  static linkExpired(): ConflictError {
    return new ConflictError('link_expired', 'This link has expired or has already been used. Ask for a new one.', 'token')
  }

  static aliasesExhausted(): ConflictError {
    return new ConflictError('aliases_exhausted', 'No free alias could be drawn for this record. Please try again, or choose an alias yourself where the API allows it.')
  }
}

/**
 * `find` made to throw `NotFoundError.of(what)` when it finds nothing: the services' `get…OrThrow`,
 * e.g. `const getPixelOrThrow = orNotFound(pixels.findById, 'Pixel')`.
 */
export function orNotFound<Args extends unknown[], Found>(find: (...args: Args) => Promise<Found | undefined>, what: string): (...args: Args) => Promise<Found> {
  return async (...args) => {
    const found = await find(...args)
    if (found === undefined) throw NotFoundError.of(what)
    return found
  }
}
