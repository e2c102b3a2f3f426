// Two-factor sign-in (issue 20, docs/adr/025-two-factor-sign-in.md): TOTP codes (RFC 6238, otplib:
// 6 digits, 30-second steps, one step of clock drift either way) and ten single-use recovery codes.
// Enrolment: a secret is drawn and shown as a QR code (our own renderer, modules/qr-codes) and as
// text; one code confirms it. A code's time step is recorded when accepted, so the same code
// (or an earlier one) is refused afterwards. A session whose password was right waits for its
// code (session.service.ts); sending it opens a full session in its place. An owner may require a
// second factor of every member. Throttling wrong codes is the transport's job
// (http/sign-in-throttle.ts, apart from passwords: ADR 027).
import { randomInt } from 'node:crypto'
import { authenticator } from 'otplib'
import type { ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { PersonRow } from '../../db/schema.js'
import { renderQrImage } from '../../images/qr-render.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import type { PeopleRepository } from './people.repository.js'
import type { SessionRepository } from './session.repository.js'
import type { SessionService, SignedIn, SignInClient } from './session.service.js'
import type { TwoFactorRepository } from './two-factor.repository.js'
import { hashApiKey } from '../../core/secrets.js'
import type { SecretBox } from '../../core/secret-box.js'
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js'
import { nowTimestamp } from '../../core/time.js'

/** Seconds per TOTP step (RFC 6238's default, what every authenticator app uses). */
export const TOTP_STEP_SECONDS = 30
/** Steps of clock drift accepted either way: a code of the step before or after now also counts. */
export const TOTP_WINDOW = 1
export const RECOVERY_CODE_COUNT = 10
/** Recovery codes are 10 characters of this alphabet (no 0/o, 1/l/i: read aloud or copied by hand), ~49 bits. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
const RECOVERY_CODE_LENGTH = 10
/** The side of the enrolment QR code, in pixels. */
const ENROLMENT_QR_SIZE = 240

/** The TOTP generator as of `now` (otplib's options are per instance: no shared state). */
function totpAt(now: Date) {
  return authenticator.clone({ step: TOTP_STEP_SECONDS, window: TOTP_WINDOW, epoch: now.getTime() })
}

/** The time step `code` belongs to for `secret` at `now`, within the window; undefined when it matches none. */
export function stepOfCode(code: string, secret: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined
  const delta = totpAt(now).checkDelta(code, secret)
  if (delta === null) return undefined
  return Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS) + delta
}

/** A recovery code as typed, without case, spaces or dashes; undefined when it cannot be one. */
export function normalizedRecoveryCode(code: string): string | undefined {
  const normalized = code.toLowerCase().replace(/[\s-]/g, '')
  return normalized.length === RECOVERY_CODE_LENGTH && [...normalized].every((char) => RECOVERY_ALPHABET.includes(char)) ? normalized : undefined
}

/** Ten new recovery codes, as shown once: `xxxxx-xxxxx`. */
function drawRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('')
    return `${chars.slice(0, 5)}-${chars.slice(5)}`
  })
}

/** What the person's Security page shows. */
export interface TwoFactorStatus {
  enabled: boolean
  /** Recovery codes not used yet. */
  recoverycodes: number
  /** Whether the current workspace requires a second factor of its members. */
  required: boolean
}

/** An enrolment begun: what the authenticator app needs. */
export interface Enrolment {
  secret: string
  /** The otpauth:// URI the QR code holds. */
  uri: string
  /** The QR code as an SVG data URI. */
  qr: string
}

export interface TwoFactorServiceOptions {
  /** The name authenticator apps show beside the code (the server's host). */
  issuer: string
  /** Seals the secrets as they are stored and opens them as they are read (SECRETS_KEY, ADR 025). */
  secrets: SecretBox
}

export interface TwoFactorDependencies {
  people: PeopleRepository
  twoFactor: Bindable<TwoFactorRepository>
  sessionRows: Bindable<SessionRepository>
  sessions: Pick<SessionService, 'openSession'>
  journal: ChangeJournal
}

export function createTwoFactorService({ people, twoFactor, sessionRows, sessions, journal }: TwoFactorDependencies, options: TwoFactorServiceOptions) {
  const { secrets } = options
  /** The acting person; a key has no second factor of its own. */
  async function personOf(actor: AuthenticatedAccount): Promise<PersonRow> {
    if (actor.sessionId === undefined || actor.personId === null) throw ForbiddenError.sessionOnly()
    const person = await people.findById(actor.personId)
    if (!person) throw NotFoundError.of('Person')
    return person
  }

  /**
   * Checks a code of the person's second factor: six digits are a TOTP code (its step recorded,
   * so it cannot be played again), anything else a recovery code (used up). Throws `wrong_code`.
   */
  async function useCode(person: PersonRow, code: string, now: Date): Promise<void> {
    if (person.totp_secret === null) throw new AppError('bad_request', 'Two-factor sign-in is not turned on.')
    const secret = secrets.open(person.totp_secret)
    const trimmed = code.trim()
    if (/^\d{6}$/.test(trimmed)) {
      const step = stepOfCode(trimmed, secret, now)
      if (step === undefined) throw ConflictError.wrongCode()
      if (!(await twoFactor.claimStep(person.id, step))) throw ConflictError.replayedCode()
      return
    }
    const recovery = normalizedRecoveryCode(trimmed)
    if (recovery === undefined || !(await twoFactor.useRecoveryCode(person.id, hashApiKey(recovery), nowTimestamp(now)))) throw ConflictError.wrongCode()
  }

  return {
    /** Seals every TOTP secret stored before SECRETS_KEY was set (`linkwell secrets seal`); answers how many. */
    async sealStoredSecrets(): Promise<number> {
      let sealed = 0
      for (const person of await twoFactor.listStoredSecrets()) {
        for (const column of ['totp_secret', 'totp_pending_secret'] as const) {
          const stored = person[column]
          if (stored !== null && !secrets.isSealed(stored) && (await twoFactor.replaceStoredSecret(person.id, column, stored, secrets.seal(stored)))) sealed += 1
        }
      }
      return sealed
    },

    async status(actor: AuthenticatedAccount): Promise<TwoFactorStatus> {
      const required = await twoFactor.isRequired(actor.id)
      const person = actor.personId === null ? undefined : await people.findById(actor.personId)
      if (!person?.totp_secret) return { enabled: false, recoverycodes: 0, required }
      return { enabled: true, recoverycodes: await twoFactor.countUnusedRecoveryCodes(person.id), required }
    },

    /** Draws a new secret for the person to scan; it counts once a code confirms it (`confirmEnrolment`). */
    async beginEnrolment(actor: AuthenticatedAccount): Promise<Enrolment> {
      const person = await personOf(actor)
      if (person.totp_secret !== null) throw new AppError('bad_request', 'Two-factor sign-in is already turned on. Turn it off first to set up another app.')
      const secret = authenticator.generateSecret(20)
      await twoFactor.setPendingSecret(person.id, secrets.seal(secret))
      const uri = authenticator.keyuri(person.email, options.issuer, secret)
      const image = await renderQrImage({ payload: uri, background: 'rgb(255,255,255)', foreground: 'rgb(0,0,0)', logo: null }, 'svg', ENROLMENT_QR_SIZE)
      return { secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(image.body).toString('base64')}` }
    },

    /**
     * Turns the second factor on when `code` matches the secret being set up; answers the recovery
     * codes, shown this once. Every other session of the person ends with it (ADR 025): one opened
     * with the password alone (perhaps by whoever made them add a factor) must not stay signed in.
     */
    async confirmEnrolment(actor: AuthenticatedAccount, code: string, now = new Date()): Promise<string[]> {
      const person = await personOf(actor)
      if (person.totp_secret !== null) throw new AppError('bad_request', 'Two-factor sign-in is already turned on.')
      if (person.totp_pending_secret === null) throw new AppError('bad_request', 'Start setting up two-factor sign-in first: scan the QR code, then enter its code.')
      const pending = secrets.open(person.totp_pending_secret)
      const step = stepOfCode(code.trim(), pending, now)
      if (step === undefined) throw ConflictError.wrongCode('The code is incorrect. Check your authenticator app and the time of this device.')
      const codes = drawRecoveryCodes()
      // Sealed anew as it is written: a pending secret stored before SECRETS_KEY was set is sealed now.
      const secret = secrets.seal(pending)
      await journal.write(actor, async (trx) => {
        await twoFactor.in(trx).enable(person.id, secret, step, nowTimestamp(now), codes.map((recovery) => hashApiKey(normalizedRecoveryCode(recovery)!)))
        // personOf refused a request without a session.
        await sessionRows.in(trx).deleteOthers(person.id, actor.sessionId!)
        return { result: undefined, changes: [{ action: 'two_factor.enabled', resource: 'person', resourceId: person.id, fields: [] }] }
      })
      return codes
    },

    /** Turns the second factor off, proven with a code or a recovery code. */
    async disable(actor: AuthenticatedAccount, code: string, now = new Date()): Promise<void> {
      const person = await personOf(actor)
      await useCode(person, code, now)
      await journal.write(actor, async (trx) => {
        await twoFactor.in(trx).disable(person.id)
        return { result: undefined, changes: [{ action: 'two_factor.disabled', resource: 'person', resourceId: person.id, fields: [] }] }
      })
    },

    /**
     * The second step of signing in: the session that waits for a code (`actor`) ends, and a full
     * one opens in its place (a new token: the half-signed-in one is worth nothing afterwards).
     */
    async completeSignIn(actor: AuthenticatedAccount, code: string, client: SignInClient, now = new Date()): Promise<SignedIn> {
      if (actor.signInStep !== 'code' || actor.sessionId === undefined || actor.personId === null) throw new AppError('bad_request', 'This session is not waiting for a code.')
      const person = await personOf(actor)
      await useCode(person, code, now)
      await sessionRows.delete(person.id, actor.sessionId)
      return sessions.openSession(person.id, actor.id, client, now)
    },

    /** Ends a session waiting for its code (too many wrong ones: http/sign-in-throttle.ts). */
    async endWaitingSession(actor: AuthenticatedAccount): Promise<void> {
      if (actor.signInStep === 'code' && actor.sessionId !== undefined && actor.personId !== null) await sessionRows.delete(actor.personId, actor.sessionId)
    },

    /** An owner requires (or no longer requires) a second factor of every member; they must have one themselves. */
    async setRequired(actor: AuthenticatedAccount, required: boolean): Promise<void> {
      if (required) {
        const person = actor.personId === null ? undefined : await people.findById(actor.personId)
        if (!person?.totp_secret) throw new ConflictError('bad_request', 'Turn on two-factor sign-in for yourself before requiring it of everyone.', 'required')
      }
      await journal.write(actor, async (trx) => {
        await twoFactor.in(trx).setRequired(actor.id, required)
        return { result: undefined, changes: [{ action: required ? 'workspace.two_factor_required' : 'workspace.two_factor_optional', resource: 'workspace', resourceId: actor.id, fields: ['required'] }] }
      })
    },
  }
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>
