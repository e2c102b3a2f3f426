// One attempt of one delivery: a signed POST to the webhook's URL. The host is resolved now, at
// delivery time, and refused when any of its addresses is private, loopback, link-local or
// reserved (unless WEBHOOK_ALLOW_PRIVATE); the connection goes to the checked address (no second
// DNS answer); redirects are not followed; the whole exchange has 10 seconds. Connections are
// kept open a few seconds for the next attempt to the same checked address (never to another).
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { AddressRefused, permittedAddressOf, pinnedLookup, systemResolver, type HostResolver, type ResolvedAddress } from '../../core/address-policy.js'
import { isHttpScheme } from '../../core/urls.js'

export const ATTEMPT_TIMEOUT_MS = 10_000
/** How much of an answer's body is kept for the delivery log. */
export const RESPONSE_BODY_KEPT = 1024
/** An idle connection is kept this long for the next attempt to the same address, then closed. */
const IDLE_CONNECTION_MS = 4_000
/** Addresses whose connections are kept (the least recently used are let go, their idle ones closing on their own). */
const KEPT_ADDRESSES = 64

export interface AttemptResult {
  ok: boolean
  /** The answer's status; null when none came. */
  status: number | null
  /** Milliseconds from the start of the attempt to the answer (or the failure). */
  ms: number
  /** The first RESPONSE_BODY_KEPT characters of the answer. */
  body: string | null
  /** Why the attempt failed; null when it succeeded. */
  error: string | null
}

export interface WebhookSenderOptions {
  /** Lets webhooks reach private and loopback addresses (WEBHOOK_ALLOW_PRIVATE; tests). */
  allowPrivate: boolean
  resolveHost?: HostResolver
  timeoutMs?: number
}

/** Sends `body` (text, or its UTF-8 bytes) with `headers` to `url`; `signal` aborts it (the worker stopping). */
export type WebhookSender = (url: string, headers: Record<string, string>, body: string | Uint8Array, signal?: AbortSignal) => Promise<AttemptResult>

/**
 * Kept connections, one pool per URL origin and checked address: a connection is only ever
 * reused for the address it was opened to, so pooling never reaches an address that was not
 * checked at this attempt. A new TCP (and TLS) connection per attempt cost more than the rest of
 * a delivery (ADR 018).
 */
function createConnectionPools() {
  const pools = new Map<string, http.Agent>()
  return function poolOf(url: URL, pinned: ResolvedAddress): http.Agent {
    const key = `${url.protocol}//${url.host} ${pinned.address}`
    let pool = pools.get(key)
    if (pool) {
      // Most recently used last.
      pools.delete(key)
    } else {
      const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, lookup: pinnedLookup(pinned) }
      pool = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)
    }
    pools.set(key, pool)
    // Let go, not destroyed: an attempt may still be using one of its connections.
    if (pools.size > KEPT_ADDRESSES) pools.delete(pools.keys().next().value as string)
    return pool
  }
}

/** A kept connection the server closed as the request went out: the request did not get through. */
function isStaleConnection(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ECONNRESET' || code === 'EPIPE'
}

function post(url: URL, pinned: ResolvedAddress, pool: http.Agent | false, headers: Record<string, string>, body: string | Uint8Array, signal: AbortSignal): Promise<IncomingMessage> {
  const transport = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = transport.request(url, {
      method: 'POST',
      agent: pool,
      lookup: pinnedLookup(pinned),
      signal,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength), 'user-agent': 'Linkwell-Webhooks/1.0' },
    })
    request.once('response', resolve)
    request.once('error', (error) => {
      // Once more on a new connection (to the same checked address) when a kept one was closed under it.
      if (request.reusedSocket && !signal.aborted && isStaleConnection(error)) resolve(post(url, pinned, false, headers, body, signal))
      else reject(error)
    })
    request.end(body)
  })
}

/**
 * The first `limit` bytes of the answer as text. An answer read to its end leaves its connection
 * for the next attempt; a longer one is not read further, and its connection is closed.
 */
async function headOf(response: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let received = 0
  // Leaving the loop early destroys the answer and its connection.
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk)
    received += chunk.length
    if (received >= limit) break
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8')
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const resolveHost = options.resolveHost ?? systemResolver
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const poolOf = createConnectionPools()
  return async function send(target, headers, body, stop) {
    const started = Date.now()
    const failed = (error: string, status: number | null = null, answer: string | null = null): AttemptResult => ({ ok: false, status, ms: Date.now() - started, body: answer, error })
    let url: URL
    try {
      url = new URL(target)
    } catch {
      return failed('the address is not a valid URL')
    }
    if (!isHttpScheme(url)) return failed('only http and https addresses are allowed')
    const deadline = AbortSignal.timeout(timeoutMs)
    const signal = stop ? AbortSignal.any([deadline, stop]) : deadline
    try {
      // A look-up cannot be cancelled: the attempt stops waiting for it at the deadline.
      const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
      aborted.catch(() => undefined)
      const pinned = await Promise.race([permittedAddressOf(url, resolveHost, options.allowPrivate), aborted])
      const response = await post(url, pinned, poolOf(url, pinned), headers, body, signal)
      const status = response.statusCode ?? 0
      const answer = await headOf(response, RESPONSE_BODY_KEPT)
      const ms = Date.now() - started
      if (status >= 200 && status < 300) return { ok: true, status, ms, body: answer, error: null }
      if (status >= 300 && status < 400) return failed(`the server answered HTTP ${status} (redirects are not followed)`, status, answer)
      return failed(`the server answered HTTP ${status}`, status, answer)
    } catch (error) {
      if (error instanceof AddressRefused) return failed(error.message)
      if (deadline.aborted) return failed(`no answer within ${timeoutMs / 1000} s`)
      if (stop?.aborted) return failed('the server stopped before the answer came')
      return failed(`the connection failed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message ?? 'network error'})`)
    }
  }
}
