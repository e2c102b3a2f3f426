// Certificates from an ACME server (issue 43, ADR 031), ordered with acme-client over HTTP-01:
// for PUBLIC_URL's host and every branded domain a workspace has proven control of, never for
// another name (an ACME server's rate limits are per registered domain: a stranger pointing names
// at us must not use them up). One instance at a time orders a name (a claim with an expiry);
// renewal starts 30 days before expiry; a failed order is retried with back-off (5 minutes,
// doubling, at most a day) and its reason kept for the domain page. Keys are sealed with
// SECRETS_KEY when it is set, and never logged.
import * as acme from 'acme-client'
import { randomBytes } from 'node:crypto'
import { backgroundLoop } from '../../core/background-loop.js'
import { CERTIFICATE_TOPIC, type Announcer } from '../../core/invalidation.js'
import { pauseFor } from '../../core/pause.js'
import type { SecretBox } from '../../core/secret-box.js'
import { nowTimestamp, timeOfStored } from '../../core/time.js'
import type { CertificateRepository, CertificateRow } from './certificate.repository.js'

// acme-client waits and tries a refused connection, a 429 or a 503 again five times itself (75 s
// in all), holding the round; this manager's own back-off (below) takes those instead, so an ACME
// server that is down costs one attempt per name and round.
;(acme.axios.defaults as unknown as { acmeSettings: { retryMaxAttempts: number } }).acmeSettings.retryMaxAttempts = 0

const DAY = 24 * 60 * 60 * 1000
/** Renewal starts this long before a certificate's end. */
export const RENEW_BEFORE_MS = 30 * DAY
const CLAIM_MS = 10 * 60 * 1000
const CHALLENGE_LIFE_MS = 60 * 60 * 1000

export interface CertificateManagerOptions {
  /** Where certificates, claims, challenges and the ACME account key are kept. */
  certificates: CertificateRepository
  acme: { email: string; directoryUrl: string }
  /** PUBLIC_URL's host when it is a name a certificate can be issued for (not localhost, not an address). */
  publicHostname: string | null
  /** The names workspaces have proven control of (the domain service's). */
  verifiedHostnames: () => Promise<string[]>
  secrets: SecretBox
  invalidation: Announcer
  /** The wait between two rounds unless woken (a domain verified). */
  pollMs: number
  now?: () => Date
  onError?: (error: unknown) => void
  /** Told each order's outcome, for the log (never a key). */
  onOrder?: (event: { hostname: string; ok: boolean; error?: string; expires?: string }) => void
}

/** Back-off after `failures` failed orders in a row: 5 minutes, doubling, at most a day. */
export function retryDelayMs(failures: number): number {
  return Math.min(5 * 60 * 1000 * 2 ** Math.max(0, failures - 1), DAY)
}

/** True when `row`'s name needs an order at `now`: no certificate, or one within 30 days of its end, and no back-off running. */
export function needsOrder(row: CertificateRow | undefined, now: Date): boolean {
  if (!row) return true
  if (row.next_attempt_at !== null && timeOfStored(row.next_attempt_at) > now.getTime()) return false
  if (row.claimed_until !== null && timeOfStored(row.claimed_until) > now.getTime()) return false
  if (row.certificate === null || row.expires_at === null) return true
  return timeOfStored(row.expires_at) - RENEW_BEFORE_MS <= now.getTime()
}

/** The words an ACME server's refusal arrives in, short enough for the domain page. */
function reasonOf(error: unknown): string {
  let text = error instanceof Error ? error.message : String(error)
  // acme-client 5.4 loses a failed connection's own error (its retry code reads the missing
  // response); the look at the directory first (`reachable`) names the cause in most cases.
  if (/reading 'config'/.test(text)) text = 'the ACME server could not be reached (the connection failed)'
  return text.length > 500 ? `${text.slice(0, 500)}…` : text
}

/** Throws, in words, when the ACME directory cannot be fetched (down, refused, an untrusted certificate). */
async function reachable(directoryUrl: string): Promise<void> {
  try {
    const response = await fetch(directoryUrl, { signal: AbortSignal.timeout(15_000) })
    await response.body?.cancel()
    if (!response.ok) throw new Error(`the ACME directory ${directoryUrl} answered ${response.status}`)
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('the ACME directory')) throw error
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw new Error(`the ACME server at ${directoryUrl} cannot be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`)
  }
}

export function createCertificateManager(options: CertificateManagerOptions) {
  const { certificates } = options
  const clock = options.now ?? (() => new Date())
  const instance = randomBytes(8).toString('hex')
  let wake: (() => void) | undefined
  let client: acme.Client | undefined

  /** The ACME account (its key made and kept on first use; the first instance's key wins a race). */
  async function acmeClient(): Promise<acme.Client> {
    if (client) return client
    const { directoryUrl, email } = options.acme
    let stored = await certificates.accountKey(directoryUrl)
    if (stored === undefined) {
      const key = (await acme.crypto.createPrivateEcdsaKey()).toString()
      await certificates.saveAccountKey(directoryUrl, email, options.secrets.seal(key), nowTimestamp(clock()))
      stored = (await certificates.accountKey(directoryUrl))!
    }
    client = new acme.Client({ directoryUrl, accountKey: options.secrets.open(stored) })
    return client
  }

  /** Orders a certificate for `hostname` and stores it; a failure is stored with its reason and back-off. */
  async function order(hostname: string, previousFailures: number): Promise<void> {
    try {
      await reachable(options.acme.directoryUrl)
      const acmeAccount = await acmeClient()
      const key = await acme.crypto.createPrivateEcdsaKey()
      const [, csr] = await acme.crypto.createCsr({ altNames: [hostname] }, key)
      const chain = await acmeAccount.auto({
        csr,
        email: options.acme.email,
        termsOfServiceAgreed: true,
        challengePriority: ['http-01'],
        // The ACME server fetches the answer from any instance; acme-client's own look first would
        // ask the network's DNS and port 80 from here, which may not reach ourselves.
        skipChallengeVerification: true,
        challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
          await certificates.putChallenge(challenge.token, keyAuthorization, nowTimestamp(new Date(clock().getTime() + CHALLENGE_LIFE_MS)))
        },
        challengeRemoveFn: async (_authz, challenge) => {
          await certificates.deleteChallenge(challenge.token, nowTimestamp(clock()))
        },
      })
      const expires = nowTimestamp(acme.crypto.readCertificateInfo(chain).notAfter)
      await certificates.saveIssued(hostname, { certificate: chain, privateKey: options.secrets.seal(key.toString()), expiresAt: expires, at: nowTimestamp(clock()) })
      options.invalidation.publish(CERTIFICATE_TOPIC, hostname)
      options.onOrder?.({ hostname, ok: true, expires })
    } catch (error) {
      const failures = previousFailures + 1
      const at = clock()
      await certificates.saveFailure(hostname, { error: reasonOf(error), failures, nextAttemptAt: nowTimestamp(new Date(at.getTime() + retryDelayMs(failures))), at: nowTimestamp(at) })
      options.onOrder?.({ hostname, ok: false, error: reasonOf(error) })
    }
  }

  /** The names wanted now: the main host and the verified branded domains. */
  async function wantedNames(): Promise<string[]> {
    const names = new Set(await options.verifiedHostnames())
    if (options.publicHostname) names.add(options.publicHostname)
    return [...names].sort()
  }

  /** One round: orders what is due (one name after another); answers the names ordered. */
  async function runOnce(): Promise<string[]> {
    const names = await wantedNames()
    const rows = await certificates.findMany(names)
    const ordered: string[] = []
    for (const hostname of names) {
      const now = clock()
      if (!needsOrder(rows.get(hostname), now)) continue
      if (!(await certificates.claim(hostname, instance, nowTimestamp(now), nowTimestamp(new Date(now.getTime() + CLAIM_MS))))) continue
      // Still wanted (a domain may have been deleted meanwhile): never order for a name not proven.
      if (!(await wantedNames()).includes(hostname)) continue
      await order(hostname, rows.get(hostname)?.failures ?? 0)
      ordered.push(hostname)
    }
    return ordered
  }

  const background = backgroundLoop(async (signal) => {
    while (!signal.aborted) {
      try {
        await runOnce()
      } catch (error) {
        if (!signal.aborted) options.onError?.(error)
      }
      await pauseFor(options.pollMs, signal, (done) => (wake = done))
    }
  })

  return {
    runOnce,
    /** Starts ordering in the background (the served app, with ACME_EMAIL). */
    start: () => background.start(),
    stop: async () => {
      await background.stop()
    },
    /** Looks again at once (a domain was just verified). */
    wake: () => wake?.(),
    /** The HTTP-01 answer for `token`, from any instance's order. */
    challengeAnswer: (token: string) => certificates.challenge(token, nowTimestamp(clock())),
  }
}

export type CertificateManager = ReturnType<typeof createCertificateManager>
