// The recheck of single sign-on people (ADR 033): every minute or so, those whose groups were read
// longer than OIDC_RECHECK ago are read again with their refresh token and mapped anew, so that a
// group removed at the provider takes the role away (and ends the sessions of someone the provider
// no longer knows) within OIDC_RECHECK. Each person is taken by one instance (sso.repository's
// claimDueForRecheck), so several instances share the work.
import { backgroundLoop, type BackgroundLoop } from '../../core/background-loop.js'
import { pauseFor } from '../../core/pause.js'
import { nowTimestamp } from '../../core/time.js'
import type { SingleSignOnService } from './sso.service.js'

export interface SsoRecheckOptions {
  singleSignOn: Pick<SingleSignOnService, 'recheckDue'>
  recheckSeconds: number
  /** How often due people are looked for (default: a tenth of OIDC_RECHECK, at most a minute). */
  pollMs?: number
  now?: () => Date
  onError?: (error: unknown) => void
}

export function createSsoRecheck(options: SsoRecheckOptions): BackgroundLoop & { runOnce(): Promise<number> } {
  const now = options.now ?? (() => new Date())
  const pollMs = options.pollMs ?? Math.min(60_000, options.recheckSeconds * 100)
  async function runOnce(): Promise<number> {
    const at = now()
    return options.singleSignOn.recheckDue(nowTimestamp(new Date(at.getTime() - options.recheckSeconds * 1000)), at)
  }
  const loop = backgroundLoop(async (signal) => {
    while (!signal.aborted) {
      try {
        // A full batch: there may be more due at once.
        if ((await runOnce()) >= 50) continue
      } catch (error) {
        options.onError?.(error)
      }
      await pauseFor(pollMs, signal)
    }
  })
  return { ...loop, runOnce }
}
