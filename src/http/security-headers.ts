// Browser-facing hardening of the API (and of the dashboard to come under /app): CORS for the
// origins the operator lists, and helmet's headers. Visitors' pages (short links, QR images,
// campaign and bio pages) are left alone: each sets its own stricter policy (public/html.ts), the
// frame and pixel pages widen it just enough, and QR images must stay embeddable on any site.
import cors from '@fastify/cors'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isApiPath } from './auth.js'
import { isDashboardPath, isDocsPath, routePathOf } from './route-path.js'

export interface SecurityHeaderOptions {
  /** Origins allowed to call the API from a browser (CORS_ORIGINS); empty: none. */
  corsOrigins: readonly string[]
  /** HSTS only makes sense, and is only sent, when the service is reached over https. */
  https: boolean
}


// JSON needs no sources at all; nothing may frame it or be based on it.
const API_POLICY = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
}

// The documentation UI and the dashboard load their own scripts and styles (Swagger UI also sets
// inline style attributes) and call the API on the same origin.
const APP_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    // Avatars may be any https address the account gave. The previews of splash pages and
    // overlays (sandboxed srcdoc frames, held to this policy) show the visitor's page, whose
    // images may be http as well (public/html.ts allows them there). blob: shows images the
    // dashboard fetched itself (the QR designer's preview, drawn by POST /api/qr/preview).
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
  },
}

export async function installSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  if (options.corsOrigins.length > 0) {
    const apiCors = {
      origin: [...options.corsOrigins],
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
      exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id'],
      // Keys travel in the Authorization header, never in cookies.
      credentials: false,
      maxAge: 600,
      // A bare OPTIONS request is answered like a preflight instead of with a text/plain 400.
      strictPreflight: false,
    }
    // Only the API answers other origins; visitors' pages are navigated to, never fetched.
    await app.register(cors, {
      // The tracking API answers the origins each workspace lists itself (modules/conversions).
      delegator: (request: FastifyRequest, callback) => {
        const path = routePathOf(request)
        callback(null, isApiPath(path) && !path.startsWith('/api/track/') ? apiCors : { origin: false })
      },
    })
  }

  const helmetOptions: HelmetOptions = {
    contentSecurityPolicy: API_POLICY,
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  }
  // The headers never depend on the request: helmet writes them once here, and every answer
  // copies them (building them per request cost the API ~5% of its time).
  const apiHeaders = headersOf(helmetOptions)
  const appHeaders = headersOf({ ...helmetOptions, contentSecurityPolicy: APP_POLICY })
  // Before the API gate (added later), so that refusals (401, 429) carry the headers as well.
  app.addHook('onRequest', (request, reply, done) => {
    // By the matched route: `/%61pp/` is the dashboard, and gets its policy.
    const path = routePathOf(request)
    if (isDocsPath(path) || isDashboardPath(path)) reply.headers(appHeaders)
    else if (isApiPath(path)) reply.headers(apiHeaders)
    done()
  })
}

/** The headers helmet sets for `options`, read off a response that only records them. */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {})
  return headers
}
