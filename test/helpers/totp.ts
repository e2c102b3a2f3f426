// The code an authenticator app shows for a two-factor secret, computed here with otplib.
import { authenticator } from 'otplib'

/** The code an authenticator app shows `stepsAhead` steps of 30 s from now. */
export function codeOf(secret: string, stepsAhead = 0): string {
  return authenticator.clone({ epoch: Date.now() + stepsAhead * 30_000 }).generate(secret)
}
