// The dashboard's previews of splash pages, CTA overlays and bio pages: POST the editor's unsaved
// fields, get back the HTML document a visitor would see, rendered by the very functions that serve
// visitors (link-pages.ts, frame-page.ts from a link as the redirect path reads it, toPublicLink;
// bio-page.view.ts). These are API endpoints (key or session, JSON errors) registered from public/
// because only this layer may use the visitors' pages (docs/architecture.md).
import { Type } from 'typebox'
import type { FastifyReply } from 'fastify'
import type { App } from '../http/app-instance.js'
import { accountOf } from '../http/auth.js'
import { errorResponses } from '../http/schemas.js'
import type { StoredPublicLink } from '../modules/visits/alias-resolver.repository.js'
import { toPublicLink } from '../modules/visits/alias-resolver.js'
import { BioPagePreviewBody } from '../modules/bio-pages/bio-page.schemas.js'
import { OverlayCreateBody } from '../modules/overlays/overlay.schemas.js'
import { SplashPageCreateBody } from '../modules/splash-pages/splash-page.schemas.js'
import type { SplashPageService } from '../modules/splash-pages/splash-page.service.js'
import type { OverlayService } from '../modules/overlays/overlay.service.js'
import type { BioPageService } from '../modules/bio-pages/bio-page.service.js'
import { bioPagePreviewDocument } from './bio-page.view.js'
import { framePageOptions } from './frame-page.js'
import { renderPage } from './html.js'
import { splashPageOptions } from './link-pages.js'

/** Where the previewed link goes: a stand-in for the destination of the links that will use it. */
export const PREVIEW_DESTINATION = 'https://example.com/'

const HtmlDocument = {
  description: 'The HTML document a visitor would see (show it in a sandboxed frame)',
  content: { 'text/html': { schema: Type.String() } },
}

/** A link of `type` as the redirect path stores it; nothing here is saved. */
function previewLink(accountId: number, type: string, fields: Partial<StoredPublicLink>): StoredPublicLink {
  return {
    id: 0,
    accountId,
    clicks: 0,
    alias: 'preview',
    url: PREVIEW_DESTINATION,
    title: null,
    description: null,
    passwordHash: null,
    expiresAt: null,
    type,
    targeting: '{}',
    options: '{}',
    splashConfig: null,
    overlay: null,
    pixels: [],
    ...fields,
  }
}

function sendDocument(reply: FastifyReply, document: string): FastifyReply {
  // The document is data for the dashboard's frame, not a page to open here: the API's own
  // policy (no sources at all) stays on this response.
  return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(document)
}

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface PreviewRouteDependencies {
  splashPages: SplashPageService
  overlays: OverlayService
  bioPages: BioPageService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
}

export function registerPreviewRoutes(app: App, { splashPages, overlays, bioPages, publicUrl }: PreviewRouteDependencies): void {
  const renderBioPreview = bioPagePreviewDocument({ publicUrl: publicUrl })

  app.post('/api/splash/preview', {
    schema: {
      tags: ['splash pages'],
      summary: 'Preview a splash page: the visitor\'s page for these (unsaved) fields, as HTML',
      body: SplashPageCreateBody,
      response: { 200: HtmlDocument, ...errorResponses },
    },
  }, async (request, reply) => {
    const config = splashPages.previewSplashConfig(request.body)
    const link = toPublicLink(previewLink(accountOf(request).id, 'splash', { splashConfig: JSON.stringify(config) }))
    // The visitor's page forwards after the counter; the preview stays.
    return sendDocument(reply, renderPage(splashPageOptions(link, PREVIEW_DESTINATION, null, false)))
  })

  app.post('/api/overlay/preview', {
    schema: {
      tags: ['overlays'],
      summary: 'Preview a CTA overlay: the visitor\'s page for these (unsaved) fields, as HTML',
      body: OverlayCreateBody,
      response: { 200: HtmlDocument, ...errorResponses },
    },
  }, async (request, reply) => {
    const config = overlays.previewOverlayConfig(request.body)
    const overlay = { id: 0, type: request.body.type, config: JSON.stringify(config) }
    const link = toPublicLink(previewLink(accountOf(request).id, 'overlay', { overlay }))
    // No frame origin: the preview frames nothing, a placeholder stands in for the destination.
    return sendDocument(reply, renderPage(framePageOptions(link, PREVIEW_DESTINATION, null, null)))
  })

  app.post('/api/bio/preview', {
    schema: {
      tags: ['bio pages'],
      summary: 'Preview a bio page: the visitors\' page for these (unsaved) fields, as HTML (nothing is stored)',
      body: BioPagePreviewBody,
      response: { 200: HtmlDocument, ...errorResponses },
    },
  }, async (request, reply) => sendDocument(reply, renderBioPreview(bioPages.previewBioPage(request.body))))
}
