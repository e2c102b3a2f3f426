// One look at a link's destination for the broken-link checker (issue 23, "Links that report when
// they break"): a HEAD, then a small GET where HEAD is refused (405, 501), redirects followed at
// most MAX_REDIRECTS times, ten seconds for the whole look. Every hop's host is resolved now and
// refused when any of its addresses is private, loopback, link-local or reserved (unless
// `allowPrivate`, LINK_CHECK_ALLOW_PRIVATE for tests); the connection goes to the checked address,
// as the webhook sender does (modules/webhooks/webhook-sender.ts).
//
// What the answer says of the link:
// - ok: the destination answered 2xx itself; redirected: it answered 2xx after one or more redirects;
// - broken: a 4xx other than 401/403/429, a 5xx, a redirect loop or chain longer than MAX_REDIRECTS,
//   a host that does not resolve, a refused or reset connection;
// - unknown: nothing can be concluded: 401/403 (the page exists behind a login or a bot wall), 429,
//   a timeout, a refused (private) address, a scheme other than http(s).
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { AddressRefused, permittedAddressOf, pinnedLookup, systemResolver, type HostResolver, type ResolvedAddress } from '../../core/address-policy.js'
import { isHttpScheme } from '../../core/urls.js'

export const PROBE_TIMEOUT_MS = 10_000
export const MAX_REDIRECTS = 5
/** The most of a GET's body read before the connection is closed. */
const GET_BYTES = 1024
const REDIRECTS = new Set([301, 302, 303, 307, 308])
const HEAD_REFUSED = new Set([405, 501])
const INCONCLUSIVE = new Set([401, 403, 429])

export const LINK_HEALTH_STATES = ['ok', 'redirected', 'broken', 'unknown'] as const
export type LinkHealth = (typeof LINK_HEALTH_STATES)[number]

export interface ProbeResult {
  health: LinkHealth
  /** The last answer's status; null when none came. */
  status: number | null
  /** Where the look ended (after redirects). */
  finalUrl: string
  /** Why the link is broken or unknown, in words; null when it answered 2xx. */
  reason: string | null
}

export interface ProbeOptions {
  allowPrivate: boolean
  resolveHost?: HostResolver
  timeoutMs?: number
  signal?: AbortSignal
}

class Inconclusive extends Error {}
class Broken extends Error {}

/** The address to check `url` at (core/address-policy): a host that does not resolve is broken; a private one is not checked. */
async function addressOf(url: URL, resolveHost: HostResolver, allowPrivate: boolean): Promise<ResolvedAddress> {
  try {
    return await permittedAddressOf(url, resolveHost, allowPrivate)
  } catch (error) {
    if (!(error instanceof AddressRefused)) throw error
    throw error.reason === 'unresolved' ? new Broken(`the host ${error.host} does not resolve`) : new Inconclusive(`${error.message}: not checked`)
  }
}

/** One request; the body is never read beyond GET_BYTES (HEAD has none). */
function request(url: URL, method: 'HEAD' | 'GET', pinned: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const transport = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(url, {
      method,
      agent: false,
      lookup: pinnedLookup(pinned),
      signal,
      headers: { 'user-agent': 'Linkwell-LinkCheck/1.0 (+broken-link checker)', accept: '*/*', ...(method === 'GET' ? { range: `bytes=0-${GET_BYTES - 1}` } : {}) },
    })
    outgoing.once('response', (response) => {
      resolve(response)
      // Nothing of the body is needed: stop after the first bytes.
      let read = 0
      response.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read >= GET_BYTES) response.destroy()
      })
      response.on('error', () => {})
    })
    outgoing.once('error', reject)
    outgoing.end()
  })
}

/** Looks at `destination` once; never throws. */
export async function probeDestination(destination: string, options: ProbeOptions): Promise<ProbeResult> {
  const resolveHost = options.resolveHost ?? systemResolver
  const timeout = AbortSignal.timeout(options.timeoutMs ?? PROBE_TIMEOUT_MS)
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout
  let url: URL
  try {
    url = new URL(destination)
  } catch {
    return { health: 'unknown', status: null, finalUrl: destination, reason: 'not a URL' }
  }
  let status: number | null = null
  try {
    for (let hop = 0; ; hop++) {
      if (!isHttpScheme(url)) throw new Inconclusive(`${url.protocol} addresses are not checked`)
      const pinned = await addressOf(url, resolveHost, options.allowPrivate)
      let response = await request(url, 'HEAD', pinned, signal)
      if (HEAD_REFUSED.has(response.statusCode ?? 0)) {
        response.resume()
        response = await request(url, 'GET', pinned, signal)
      }
      status = response.statusCode ?? null
      response.resume()
      const location = response.headers.location
      if (status !== null && REDIRECTS.has(status) && location) {
        if (hop >= MAX_REDIRECTS) throw new Broken(`more than ${MAX_REDIRECTS} redirects`)
        url = new URL(location, url)
        continue
      }
      const finalUrl = url.toString()
      if (status !== null && status >= 200 && status < 300) return { health: hop === 0 ? 'ok' : 'redirected', status, finalUrl, reason: null }
      if (status !== null && INCONCLUSIVE.has(status)) return { health: 'unknown', status, finalUrl, reason: `answered ${status}` }
      return { health: 'broken', status, finalUrl, reason: `answered ${status ?? 'nothing'}` }
    }
  } catch (error) {
    const finalUrl = url.toString()
    if (error instanceof Broken) return { health: 'broken', status, finalUrl, reason: error.message }
    if (error instanceof Inconclusive) return { health: 'unknown', status, finalUrl, reason: error.message }
    if (timeout.aborted) return { health: 'unknown', status, finalUrl, reason: `no answer within ${(options.timeoutMs ?? PROBE_TIMEOUT_MS) / 1000} s` }
    if (options.signal?.aborted) return { health: 'unknown', status, finalUrl, reason: 'the check was stopped' }
    const code = (error as NodeJS.ErrnoException).code
    return { health: 'broken', status, finalUrl, reason: `the connection failed${code ? ` (${code})` : ''}` }
  }
}
