// Why a single sign-on was refused, as a reason the callback's page explains (sso-pages.ts) and
// the audit log records. Not an AppError: the browser is sent back to the sign-in page, which says
// what to do (core/sso-reasons.ts), not answered with the API envelope.
import type { SingleSignOnReason } from '../../core/sso-reasons.js'

export type { SingleSignOnReason }


export class SingleSignOnError extends Error {
  constructor(readonly reason: SingleSignOnReason, detail?: string) {
    super(detail ? `${reason}: ${detail}` : reason)
    this.name = 'SingleSignOnError'
  }

  /** The callback's state is missing, unknown, used already, expired, or not this browser's. */
  static state(): SingleSignOnError {
    return new SingleSignOnError('state')
  }

  /** The provider refused the code: used already (a replay), expired, or not ours. */
  static code(): SingleSignOnError {
    return new SingleSignOnError('code')
  }

  /** The ID token failed a check. */
  static token(check: 'signature' | 'audience' | 'expired' | 'nonce'): SingleSignOnError {
    return new SingleSignOnError(`token_${check}`)
  }

  /** The provider answered the sign-in with an error of its own (the person cancelled, access denied). */
  static providerRefused(error: string): SingleSignOnError {
    return new SingleSignOnError('provider_refused', error)
  }

  static unavailable(): SingleSignOnError {
    return new SingleSignOnError('unavailable')
  }

  static misconfigured(): SingleSignOnError {
    return new SingleSignOnError('misconfigured')
  }

  static insecureIssuer(): SingleSignOnError {
    return new SingleSignOnError('insecure_issuer')
  }

  static unknownProvider(): SingleSignOnError {
    return new SingleSignOnError('unknown_provider')
  }

  static unverifiedEmail(): SingleSignOnError {
    return new SingleSignOnError('unverified_email')
  }

  static notAllowed(): SingleSignOnError {
    return new SingleSignOnError('not_allowed')
  }

  static noWorkspace(): SingleSignOnError {
    return new SingleSignOnError('no_workspace')
  }

  /** The provider no longer knows the person, or refused their refresh token (the recheck). */
  static gone(): SingleSignOnError {
    return new SingleSignOnError('gone')
  }
}
