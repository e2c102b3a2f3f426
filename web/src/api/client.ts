// The dashboard's API client is the SDK's (packages/client: @linkwell/client), typed from the
// server's OpenAPI document. The session cookie rides along (same origin); unsafe requests carry
// the CSRF header the server asks of cookie-authenticated requests. No retries: a person sees a
// refusal at once and chooses (the SDK's scripts retry 429 and 503 for themselves).
import type { Middleware } from 'openapi-fetch'
import { bodyOf, createLinkwellClient, LinkwellError, type LinkwellErrorCode } from '../../../packages/client/src/index'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** A failed API call: the SDK's error (status, stable code, the field it names) with the dashboard's wording. */
export class ApiError extends LinkwellError {
  constructor(status: number, message: string, details: { code?: LinkwellErrorCode; field?: string; retryAfterSeconds?: number } = {}) {
    super({ status, message, code: details.code ?? 'unexpected_response', field: details.field, retryAfterSeconds: details.retryAfterSeconds })
    this.name = 'ApiError'
  }

  /** The SDK's error as the dashboard words it: plain words for an unreachable server and for 429. */
  static of(error: LinkwellError): ApiError {
    if (error.code === 'network_error') return new ApiError(0, 'Could not reach the server. Check your connection and try again.', { code: 'network_error' })
    if (error.status === 429) {
      const wait = error.retryAfterSeconds
      return new ApiError(429, `Too many requests. Try again${wait ? ` in ${wait} s` : ' in a minute'}.`, { code: 'rate_limited', retryAfterSeconds: wait })
    }
    return new ApiError(error.status, error.message, { code: error.code, field: error.field, retryAfterSeconds: error.retryAfterSeconds })
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

// The requests sent and not answered yet. Signing out waits for them (AppShell): one that reached
// the server after the session ended would come back 401, which the browser logs, and that answer
// would clear the cookie of whoever has signed in since.
const unanswered = new Set<Promise<void>>()

/** The browser's fetch, counting each request as unanswered until its response (or its failure) arrives. */
function fetchCountingUnanswered(request: Request): Promise<Response> {
  // globalThis.fetch is looked up on every call: the component tests install their stand-in for it.
  const response = globalThis.fetch(request)
  const answered = response.then(() => undefined, () => undefined)
  unanswered.add(answered)
  void answered.then(() => unanswered.delete(answered))
  return response
}

/** Resolves once every request sent so far, and any sent meanwhile, has been answered or has failed. */
export async function requestsAnswered(): Promise<void> {
  while (unanswered.size > 0) await Promise.all(unanswered)
}

export const api = createLinkwellClient({ baseUrl: globalThis.location?.origin ?? 'http://localhost', credentials: 'same-origin', retries: 0, fetch: fetchCountingUnanswered }).raw
api.use(sessionMiddleware)

/** The body of a successful call, or throws ApiError with the server's message. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  try {
    return await bodyOf(call)
  } catch (error) {
    throw error instanceof LinkwellError ? ApiError.of(error) : error
  }
}

/** Readable text of anything a query or mutation threw. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return 'Something went wrong.'
}
