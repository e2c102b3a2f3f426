// @linkwell/client: a typed client for the Linkwell API. The types (./schema.ts) are generated
// from the server's own OpenAPI document by the script that makes the dashboard's
// (`npm run api:types` at the repository root); requests go through openapi-fetch.
//
// Every call answers the operation's typed success body, or throws a LinkwellError carrying the
// error envelope's `code`, `message` and `field`. Answers 429 and 503 are retried a bounded
// number of times, after the wait their Retry-After asks for.
import createClient, { type Client, type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch'
import type { components, paths } from './schema.js'

export type { components, paths } from './schema.js'

/** The error envelope the server answers every failure with: `{error: 1, message, code, field?}`. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope']

/**
 * The envelope's stable codes, and two of the client's own: `network_error` (no answer: the
 * server was unreachable or the connection dropped) and `unexpected_response` (an answer that is
 * not the envelope, e.g. a proxy's error page).
 */
export type LinkwellErrorCode = ErrorEnvelope['code'] | 'network_error' | 'unexpected_response'

/** A failed call: the HTTP status (0 when there was no answer) and what the envelope says. */
export class LinkwellError extends Error {
  readonly status: number
  readonly code: LinkwellErrorCode
  /** The request field at fault, as a dotted path (`custom`, `geotarget.0.location`), when one is. */
  readonly field: string | undefined
  /** The seconds the server asked to wait (Retry-After of a 429 or 503), once retries are spent. */
  readonly retryAfterSeconds: number | undefined

  constructor(details: { status: number; code: LinkwellErrorCode; message: string; field?: string; retryAfterSeconds?: number; cause?: unknown }) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'LinkwellError'
    this.status = details.status
    this.code = details.code
    this.field = details.field
    this.retryAfterSeconds = details.retryAfterSeconds
  }
}

export function isLinkwellError(value: unknown): value is LinkwellError {
  return value instanceof LinkwellError
}

export interface LinkwellClientOptions {
  /** The server's address, e.g. `https://go.example.com` (the API lives under /api). */
  baseUrl: string
  /** An API key; sent as `Authorization: Bearer <key>`. */
  apiKey?: string
  /** How many times a 429 or 503 answer is retried before its error is thrown (default 3). */
  retries?: number
  /** A Retry-After longer than this (milliseconds) is not waited for: the error is thrown at once (default 60 000). */
  maxRetryDelayMs?: number
  /** Further headers sent with every request. */
  headers?: Record<string, string>
  /** The fetch to use (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>
  /** Whether cookies ride along (`same-origin` for a page served by the same server, e.g. the dashboard). */
  credentials?: 'include' | 'omit' | 'same-origin'
}

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch'
type PathOf<M extends Method> = ClientPathsWithMethod<Client<paths>, M>
type MediaType = `${string}/${string}`
type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [Init?] : [Init]

/** The success body of `method path`, as the OpenAPI document describes it. */
export type ResponseOf<P extends keyof paths, M extends Method, Init = object> = paths[P][M] extends Record<string | number, any>
  ? NonNullable<FetchResponse<paths[P][M], Init, MediaType>['data']>
  : never

type Call<M extends Method> = <P extends PathOf<M>, Init extends MaybeOptionalInit<paths[P], M>>(path: P, ...init: InitParam<Init>) => Promise<ResponseOf<P, M, Init>>

export interface LinkwellClient {
  GET: Call<'get'>
  POST: Call<'post'>
  PUT: Call<'put'>
  PATCH: Call<'patch'>
  DELETE: Call<'delete'>
  /** The underlying openapi-fetch client (retries included), answering `{data, error, response}` without throwing. */
  raw: Client<paths>
}

/** The statuses that say "not now, try again later": the request was not carried out. */
const RETRIED_STATUSES = new Set([429, 503])
/** The wait before a retry when a 429 or 503 names none: 0.5 s, then doubling. */
const FIRST_BACKOFF_MS = 500

/** Milliseconds a Retry-After value asks for (delta-seconds or an HTTP date), or undefined when it is unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(date - now, 0)
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** `fetch` retrying 429 and 503 answers up to `retries` times, waiting as their Retry-After asks. */
function retryingFetch(fetcher: (request: Request) => Promise<Response>, retries: number, maxRetryDelayMs: number) {
  return async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries
      // A body can be sent once: every attempt but the last sends a copy.
      const response = await fetcher(last ? request : request.clone())
      if (last || !RETRIED_STATUSES.has(response.status)) return response
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? FIRST_BACKOFF_MS * 2 ** attempt
      if (wait > maxRetryDelayMs) return response
      await response.body?.cancel()
      await sleep(wait, request.signal)
    }
  }
}

function envelopeOf(body: unknown): Partial<Record<keyof ErrorEnvelope, unknown>> | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const envelope = body as Record<string, unknown>
  return envelope.error === 1 && typeof envelope.message === 'string' && typeof envelope.code === 'string' ? envelope : undefined
}

/** The error a failed answer stands for. */
export function errorOfResponse(response: Response, body: unknown): LinkwellError {
  const envelope = envelopeOf(body)
  const wait = retryAfterMs(response.headers.get('retry-after'))
  const retryAfterSeconds = wait === undefined ? undefined : Math.ceil(wait / 1000)
  if (!envelope) {
    return new LinkwellError({ status: response.status, code: 'unexpected_response', message: `The server answered ${response.status} ${response.statusText}`.trim(), retryAfterSeconds })
  }
  return new LinkwellError({
    status: response.status,
    code: envelope.code as ErrorEnvelope['code'],
    message: envelope.message as string,
    field: typeof envelope.field === 'string' ? envelope.field : undefined,
    retryAfterSeconds,
  })
}

/**
 * The success body of a call made with the raw client (`client.raw.GET(…)`), or the LinkwellError its
 * answer stands for: `network_error` when there was no answer.
 */
export async function bodyOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let outcome: Awaited<typeof call>
  try {
    outcome = await call
  } catch (cause) {
    if (cause instanceof LinkwellError) throw cause
    throw new LinkwellError({ status: 0, code: 'network_error', message: `The server could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`, cause })
  }
  if (outcome.response.ok) return outcome.data as T
  throw errorOfResponse(outcome.response, outcome.error)
}

/**
 * A client for one server and key:
 *
 *     const linkwell = createLinkwellClient({ baseUrl: 'https://go.example.com', apiKey })
 *     const link = await linkwell.POST('/api/url/add', { body: { url: 'https://example.com/spring' } })
 */
export function createLinkwellClient(options: LinkwellClientOptions): LinkwellClient {
  const fetcher = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(fetcher, Math.max(0, Math.floor(options.retries ?? 3)), options.maxRetryDelayMs ?? 60_000),
    headers: { ...options.headers, ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }) },
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
  })
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') =>
    ((path: string, init?: object) => bodyOf((raw.request as (method: string, path: string, init?: object) => Promise<{ response: Response }>)(method, path, init))) as never
  return { GET: call('GET'), POST: call('POST'), PUT: call('PUT'), PATCH: call('PATCH'), DELETE: call('DELETE'), raw }
}
