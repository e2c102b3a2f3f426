// Which part of the house a request is for (the API, its documentation, the dashboard, visitors'
// addresses), decided by the route Fastify matched (issue 36). The router decodes percent-escapes,
// so `/%61pi/auth/login` reaches the sign-in route: a check of the raw URL would let that request
// past the gate, the CSRF check and the rate limit its route is meant to have.
import type { FastifyRequest } from 'fastify'
import { decodedOrAsSent, pathOfUrl } from '../core/query-parameters.js'

/** What the hooks read of a request: Fastify's, or the raw one (the log controller may pass either). */
export type RoutedRequest = Pick<FastifyRequest, 'url'> & { routeOptions?: Pick<FastifyRequest['routeOptions'], 'url'> }

/**
 * The matched route's path (`/api/link/:id`, `/app/*`); for a request no route matched, or only
 * a catch-all (`*`, where CORS answers every OPTIONS; `/*`, imported aliases with a `/`, ADR 028),
 * its path decoded as the router reads it, so an unknown `/%61pi/…` is still the API's.
 */
export function routePathOf(request: RoutedRequest): string {
  const matched = request.routeOptions?.url
  return matched !== undefined && !CATCH_ALL_ROUTES.has(matched) ? matched : decodedPathOf(request.url ?? '')
}

/** Routes that match any path: they tell nothing of which part of the house a request is for. */
const CATCH_ALL_ROUTES: ReadonlySet<string> = new Set(['*', '/*'])

/** A request URL's path without its query, percent-escapes decoded (as sent when they are malformed). */
export function decodedPathOf(url: string): string {
  return decodedOrAsSent(pathOfUrl(url))
}

/** The dashboard's paths (public/dashboard.ts serves them under /app). */
export function isDashboardPath(path: string): boolean {
  return path === '/app' || path.startsWith('/app/')
}

/** The documentation UI's paths (@fastify/swagger-ui under /api/docs). */
export function isDocsPath(path: string): boolean {
  return path === '/api/docs' || path.startsWith('/api/docs/')
}
