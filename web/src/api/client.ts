// One typed client for the whole dashboard, generated from the server's OpenAPI document
// (schema.d.ts, `npm run api:types`). The session cookie rides along (same origin); unsafe
// requests carry the CSRF header the server asks of cookie-authenticated requests.
import createClient, { type Middleware } from 'openapi-fetch'
import type { paths } from './schema'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** A failed API call: the server's message, its status and stable code, and the field it names. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  /** The request field the message is about (`custom`, `geotarget.0.location`), when it names one. */
  readonly field: string | undefined
  /** 429: seconds until the rate limit's window ends. */
  readonly retryAfterSeconds: number | undefined

  constructor(status: number, message: string, code?: string, retryAfterSeconds?: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.field = code === 'rate_limited' || code === 'network' ? undefined : (code && FIELD_OF_CODE[code]) ?? fieldOfMessage(message)
    this.retryAfterSeconds = retryAfterSeconds
  }
}

// Refusals whose code says which field was wrong.
const FIELD_OF_CODE: Record<string, string> = { wrong_password: 'current' }

// Messages the server writes about one field without quoting it.
const FIELD_HINTS: Array<[RegExp, string]> = [
  [/\balias\b/i, 'custom'],
  [/\bdomain\b/i, 'domain'],
  [/\bexpir/i, 'expiry'],
  [/\bpassword\b/i, 'password'],
  [/\bcampaign\b/i, 'campaign'],
  [/\bchannel\b/i, 'channel'],
  [/\bpixel\b/i, 'pixels'],
]

/** What a message says of its field, for showing beside that field: `The field "custom" must be …` → `Must be …`. */
export function ruleOfMessage(message: string): string {
  const rule = message.replace(/^The (?:field|query parameter|path parameter) "[^"]+" /, '')
  return rule === message ? message : rule.charAt(0).toUpperCase() + rule.slice(1)
}

/** `The field "geotarget.0.location" must be …` → `geotarget.0.location`. */
export function fieldOfMessage(message: string): string | undefined {
  const quoted = /\b(?:field|parameter) "([^"]+)"/.exec(message)
  if (quoted) return quoted[1]
  return FIELD_HINTS.find(([pattern]) => pattern.test(message))?.[1]
}

type Listener = () => void
const signedOutListeners = new Set<Listener>()

/** Called when the server answers 401 to a dashboard request: the session is gone. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener)
  return () => signedOutListeners.delete(listener)
}

const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    if (UNSAFE_METHODS.has(request.method)) request.headers.set('X-Linkwell-CSRF', '1')
    return request
  },
  onResponse({ request, response }) {
    const url = new URL(request.url)
    if (response.status === 401 && !url.pathname.startsWith('/api/auth/login')) {
      for (const listener of signedOutListeners) listener()
    }
    return response
  },
}

export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? 'http://localhost', credentials: 'same-origin' })
api.use(sessionMiddleware)

interface Outcome<T> {
  data?: T
  error?: unknown
  response: Response
}

/** The body of a successful call, or throws ApiError with the server's message. */
export async function unwrap<T>(call: Promise<Outcome<T>>): Promise<T> {
  let outcome: Outcome<T>
  try {
    outcome = await call
  } catch {
    throw new ApiError(0, 'Could not reach the server. Check your connection and try again.', 'network')
  }
  const { data, error, response } = outcome
  if (response.ok && data !== undefined) return data
  const body = (error ?? {}) as { message?: unknown; code?: unknown }
  const message = typeof body.message === 'string' ? body.message : `The server answered ${response.status}.`
  if (response.status === 429) {
    const wait = Number(response.headers.get('retry-after')) || undefined
    throw new ApiError(429, `Too many requests. Try again${wait ? ` in ${wait} s` : ' in a minute'}.`, 'rate_limited', wait)
  }
  throw new ApiError(response.status, message, typeof body.code === 'string' ? body.code : undefined)
}

/** Readable text of anything a query or mutation threw. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return 'Something went wrong.'
}
