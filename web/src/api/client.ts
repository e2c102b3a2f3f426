// One typed client for the whole dashboard, generated from the server's OpenAPI document
// (schema.d.ts, `npm run api:types`). The session cookie rides along (same origin); unsafe
// requests carry the CSRF header the server asks of cookie-authenticated requests.
import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from './schema'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

type ErrorEnvelope = components['schemas']['ErrorEnvelope']

/** A failed API call: the server's message, its status and stable code, and the field it names. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string | undefined
  /** The request field the error is about, as the envelope's `field` names it (`custom`, `geotarget.0.location`). */
  readonly field: string | undefined
  /** 429: seconds until the rate limit's window ends. */
  readonly retryAfterSeconds: number | undefined

  constructor(status: number, message: string, details: { code?: string; field?: string; retryAfterSeconds?: number } = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = details.code
    this.field = details.field
    this.retryAfterSeconds = details.retryAfterSeconds
  }

  /**
   * What the message says of its field, for showing beside that field: `The field "custom" must
   * be …` → `Must be …`; a message that does not start by naming the field stays whole.
   */
  get rule(): string {
    return ruleOfMessage(this.message, this.field)
  }
}

// How the server's validation messages name the field they are about (core/validation-messages.ts).
const FIELD_PREFIXES = ['field', 'query parameter', 'path parameter']

/** `message` without its leading `The field "<field>" `, capitalised; the message itself otherwise. */
export function ruleOfMessage(message: string, field: string | undefined): string {
  if (field === undefined) return message
  const prefix = FIELD_PREFIXES.map((part) => `The ${part} "${field}" `).find((text) => message.startsWith(text))
  if (!prefix) return message
  const rule = message.slice(prefix.length)
  return rule.charAt(0).toUpperCase() + rule.slice(1)
}

type Listener = () => void
const signedOutListeners = new Set<Listener>()

/** Called when the server answers 401 to a dashboard request: the session is gone. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener)
  return () => signedOutListeners.delete(listener)
}

const refusedListeners = new Set<Listener>()

/** Called when the server answers 403 to a dashboard request: the person's role may have changed (read it again). */
export function onRefused(listener: Listener): () => void {
  refusedListeners.add(listener)
  return () => refusedListeners.delete(listener)
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
    if (response.status === 403) for (const listener of refusedListeners) listener()
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
    throw new ApiError(0, 'Could not reach the server. Check your connection and try again.', { code: 'network' })
  }
  const { data, error, response } = outcome
  if (response.ok && data !== undefined) return data
  // The envelope as the server sends it; anything else (a proxy's page) is read as far as it goes.
  const body = (error ?? {}) as { [K in keyof ErrorEnvelope]?: unknown }
  const message = typeof body.message === 'string' ? body.message : `The server answered ${response.status}.`
  if (response.status === 429) {
    const wait = Number(response.headers.get('retry-after')) || undefined
    throw new ApiError(429, `Too many requests. Try again${wait ? ` in ${wait} s` : ' in a minute'}.`, { code: 'rate_limited', retryAfterSeconds: wait })
  }
  throw new ApiError(response.status, message, {
    code: typeof body.code === 'string' ? body.code : undefined,
    field: typeof body.field === 'string' ? body.field : undefined,
  })
}

/** Readable text of anything a query or mutation threw. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return 'Something went wrong.'
}
