// The background checks of unproven branded domains (ADR 031): every few seconds, the claims whose
// next check is due (each instance takes its own by a lease), every five minutes for a claim's
// first day, hourly for a week (domain-verification.ts `nextCheckAfter`).
import { backgroundLoop } from '../../core/background-loop.js'
import { pauseFor } from '../../core/pause.js'
import type { DomainService } from './domain.service.js'

const BATCH = 10

export interface DomainVerifierOptions {
  /** Checks the claims whose next check is due (the domain service). */
  domains: Pick<DomainService, 'checkDue'>
  /** The wait between two rounds when fewer than a batch were due. */
  pollMs: number
  onError?: (error: unknown) => void
}

export function createDomainVerifier(options: DomainVerifierOptions) {
  const { domains } = options
  const background = backgroundLoop(async (signal) => {
    while (!signal.aborted) {
      let taken = 0
      try {
        taken = await domains.checkDue(BATCH)
      } catch (error) {
        if (!signal.aborted) options.onError?.(error)
      }
      // A full batch suggests more are due: go on at once.
      if (taken === BATCH) continue
      await pauseFor(options.pollMs, signal)
    }
  })
  return {
    /** Starts checking in the background (the served app does, on ready). */
    start: () => background.start(),
    stop: async () => {
      await background.stop()
    },
  }
}

export type DomainVerifier = ReturnType<typeof createDomainVerifier>
