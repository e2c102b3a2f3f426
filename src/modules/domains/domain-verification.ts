// Proof that a workspace controls a branded domain (ADR 031): the TXT record `_linkwell.<domain>`
// holding the claim's token, always; or, where the instance allows it and no other workspace
// claims the name, the pointing check (SERVER_IPS / SERVER_CNAME) together with the claim's
// challenge fetched back over the domain itself on port 80. Each finding is put in words for the
// domain page; the schedule of background checks lives here too.
import http from 'node:http'
import { isIP } from 'node:net'
import { pinnedLookup } from '../../core/address-policy.js'
import { isPointingToServer, type DnsClient, type HostResolver, type ServerTarget } from './domain-dns.js'

/** Where a claim's token is published: the name of its TXT record. */
export function verificationRecordName(hostname: string): string {
  return `_linkwell.${hostname}`
}

/** The path Linkwell answers a claim's token on, on the claimed host (the HTTP proof). */
export const CHALLENGE_PATH = '/.well-known/linkwell/'

export type ProofMethod = 'txt' | 'http'

export type CheckResult = { proven: ProofMethod } | { proven: null; problem: string }

export interface ProofOptions {
  dns: DnsClient
  /** The pointing check's look-up (the DNS client's, or a test's). */
  hostRecords: HostResolver
  server: ServerTarget
  /** Whether the HTTP proof counts at all (DOMAIN_VERIFICATION=txt turns it off). */
  allowHttp: boolean
  /** The port the challenge is fetched on: 80, where the domain's visitors arrive (tests: their own). */
  httpPort: number
}

/** What the TXT record says about `token`: proven, or the finding in words. */
async function txtFinding(dns: DnsClient, hostname: string, token: string): Promise<string | null> {
  const name = verificationRecordName(hostname)
  const answer = await dns.txt(name)
  if ('problem' in answer) {
    return answer.problem === 'none' ? `no TXT record found at ${name}` : `the DNS look-up of ${name} failed (${answer.code}); it is tried again`
  }
  if (answer.records.some((record) => record.trim() === token)) return null
  if (answer.records.length === 0) return `no TXT record found at ${name}`
  const shown = answer.records.map((record) => `"${record.length > 60 ? `${record.slice(0, 60)}…` : record}"`).join(', ')
  return `the TXT record at ${name} holds ${shown}, not this domain's value`
}

/** Fetches `http://hostname:port/.well-known/linkwell/<token>` from `address` and answers what came back. */
function fetchChallenge(hostname: string, address: string, port: number, token: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const family = isIP(address) === 6 ? 6 : 4
    const request = http.get({ host: hostname, port, path: `${CHALLENGE_PATH}${token}`, lookup: pinnedLookup({ address, family }), timeout: 5_000, headers: { accept: 'text/plain' } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
        if (body.length > 1024) request.destroy()
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      response.on('error', (error) => resolve({ error: error.message }))
    })
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')))
    request.on('error', (error) => resolve({ error: error.message }))
  })
}

/** The HTTP proof: the name points here and answers the claim's challenge; null when proven. */
async function httpFinding(options: ProofOptions, hostname: string, token: string): Promise<string> {
  const records = await options.hostRecords(hostname)
  if (!(await isPointingToServer(hostname, options.server, options.hostRecords))) {
    const found = records.addresses.length > 0 ? `it resolves to ${records.addresses.join(', ')}` : 'it has no A or AAAA record'
    return `${hostname} does not point to this server (${found})`
  }
  const address = records.addresses[0]
  if (!address) return `${hostname} has no address to fetch the challenge from`
  const answer = await fetchChallenge(hostname, address, options.httpPort, token)
  const where = `http://${hostname}${options.httpPort === 80 ? '' : `:${options.httpPort}`}${CHALLENGE_PATH}…`
  if ('error' in answer) return `${where} could not be fetched (${answer.error})`
  if (answer.status !== 200 || answer.body.trim() !== token) return `${where} answered ${answer.status}${answer.status === 200 ? ' with another value' : ''}`
  return ''
}

/**
 * Looks for proof of control of `hostname` for the claim holding `token`. The HTTP proof is tried
 * only when it is allowed, the pointing check is configured and `soleClaim` (no other workspace
 * claims the name: it proves the name points here, not which workspace it is for).
 */
export async function checkProof(options: ProofOptions, hostname: string, token: string, soleClaim: boolean): Promise<CheckResult> {
  const txt = await txtFinding(options.dns, hostname, token)
  if (txt === null) return { proven: 'txt' }
  const httpUsable = options.allowHttp && soleClaim && (options.server.ips.length > 0 || options.server.cname !== undefined)
  if (!httpUsable) return { proven: null, problem: txt }
  const problem = await httpFinding(options, hostname, token)
  if (problem === '') return { proven: 'http' }
  return { proven: null, problem: `${txt}; and ${problem}` }
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * When the background check looks again after a check at `now` that found no proof: every five
 * minutes for the first day of checks, then hourly for a week; null once the week is over (the
 * domain page's "Check now" starts the schedule again).
 */
export function nextCheckAfter(checksSince: Date, now: Date): Date | null {
  const age = now.getTime() - checksSince.getTime()
  if (age < DAY) return new Date(now.getTime() + 5 * MINUTE)
  if (age < 8 * DAY) return new Date(now.getTime() + HOUR)
  return null
}
