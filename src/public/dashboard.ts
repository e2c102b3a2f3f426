// The dashboard (web/, built by `vite build` into DASHBOARD_DIR, default dist/web) at /app/ on the
// main host: hashed assets cached for a year, index.html revalidated on every load, and every
// other path under /app/ answered with index.html so the browser's router can take it (the SPA
// fallback). Without a build, /app/ says so in a page instead of failing.
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fastifyStatic from '@fastify/static'
import type { App } from '../http/app-instance.js'
import type { VisitService } from '../modules/visits/visit.service.js'
import { html, sendNotFoundPage, sendPage } from './html.js'

/** Where the dashboard lives; `/` on the main host redirects here. */
export const DASHBOARD_PATH = '/app/'

// Vite names every file under assets/ by its content hash: a new build means new names.
const IMMUTABLE = 'public, max-age=31536000, immutable'
// index.html names the current assets: always ask whether it changed.
const REVALIDATE = 'no-cache'

function setDashboardHeaders(reply: FastifyReply, filePath: string): void {
  const hashed = filePath.split(path.sep).includes('assets')
  reply.header('cache-control', hashed ? IMMUTABLE : REVALIDATE)
  // The Content-Security-Policy and the other security headers come from http/security-headers.ts.
  reply.header('x-content-type-options', 'nosniff')
}

function sendNotBuiltPage(reply: FastifyReply, dashboardDir: string): FastifyReply {
  return sendPage(reply, {
    status: 503,
    title: 'Dashboard not built',
    body: html`<h1>The dashboard is not built</h1>
<p>This server found no dashboard in <code>${dashboardDir}</code>. Run <code>npm run build</code> (or <code>npm start</code>, which builds first), then restart the server.</p>
<p class="muted">The API works without it: see <a href="/api/docs">/api/docs</a>.</p>`,
  })
}

/** The last path segment has a dot: a file (a missing asset), not a page of the dashboard's router. */
function looksLikeFile(url: string): boolean {
  const pathname = url.split('?', 1)[0]!
  return /\.[A-Za-z0-9]+$/.test(pathname.slice(pathname.lastIndexOf('/') + 1))
}

export async function registerDashboard(app: App, { dashboardDir, visits }: { dashboardDir: string; visits: Pick<VisitService, 'isBrandedHost'> }): Promise<void> {
  const built = fs.existsSync(path.join(dashboardDir, 'index.html'))

  await app.register(async (scope: App) => {
    // The dashboard belongs to PUBLIC_URL's host; on a branded domain /app/… is a visitor's address.
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (await visits.isBrandedHost(request.headers.host)) return sendNotFoundPage(reply)
    })

    if (!built) {
      scope.get('/', { schema: { hide: true } }, (_request, reply) => sendNotBuiltPage(reply, dashboardDir))
      scope.get('/*', { schema: { hide: true } }, (_request, reply) => sendNotBuiltPage(reply, dashboardDir))
      return
    }

    await scope.register(fastifyStatic, {
      root: dashboardDir,
      prefix: '/',
      index: ['index.html'],
      // Cache-Control is ours (setDashboardHeaders): per file, not one value for all.
      cacheControl: false,
      setHeaders: setDashboardHeaders,
      serveDotFiles: false,
      schemaHide: true,
    })
    // `/app` and `/app/` (one route: trailing slashes are ignored), else the visitors' `/:alias` takes them.
    scope.get('/', { schema: { hide: true } }, (_request, reply) => reply.sendFile('index.html'))
    // Paths the build has no file for: the router's pages get index.html, missing files a 404.
    scope.setNotFoundHandler((request, reply) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || looksLikeFile(request.url)) return sendNotFoundPage(reply)
      return reply.sendFile('index.html')
    })
  }, { prefix: DASHBOARD_PATH.replace(/\/$/, '') })
}
