// Everything visitors reach without a key, in one plugin scope: QR images and tracking addresses,
// avatars, campaign rotators and list pages, and (last, since `/:alias` matches any one segment)
// short links and bio pages. The scope has its own form parser and answers errors with HTML pages.
import type { App } from '../http/app-instance.js'
import type { CampaignPagesService } from '../modules/campaigns/campaign-pages.service.js'
import type { OverlayService } from '../modules/overlays/overlay.service.js'
import type { QrImageService } from '../modules/qr-codes/qr-image.service.js'
import type { VisitService } from '../modules/visits/visit.service.js'
import type { LinkCardService } from '../modules/links/link-card.service.js'
import { registerSocialCardRoutes } from './social-card.js'
import { registerAvatarRoutes } from './avatar.routes.js'
import { registerTrackingScriptRoute } from './tracking-script.js'
import { registerCampaignPageRoutes } from './campaign-pages.routes.js'
import { sendPublicError } from './error-pages.js'
import { installFormBodyParser } from './form-body.js'
import { registerQrImageRoutes } from './qr-image.routes.js'
import { registerRedirectRoutes } from './redirect.routes.js'
import type { VisitAnswers } from './link-visit.js'
import type { VisitorLog } from './visitor-log.js'
import type { VisitorThrottles } from './visitor-throttles.js'

/** What visitors' routes use, handed over by app.ts. */
export interface PublicSiteDependencies {
  visits: VisitService
  qrImages: QrImageService
  campaignPages: CampaignPagesService
  overlays: OverlayService
  /** Social card images. */
  cards: Pick<LinkCardService, 'cardImage'>
  throttles: VisitorThrottles
  /** Counts every answer for the visitors' summary line. */
  visitorLog: VisitorLog
  /** Renders and counts a visit, as the front door's short path does. */
  answers: VisitAnswers
  publicUrl: string
}

export async function registerPublicSite(app: App, site: PublicSiteDependencies): Promise<void> {
  await app.register(async (scope: App) => {
    installFormBodyParser(scope)
    scope.setErrorHandler(sendPublicError)
    scope.addHook('onResponse', (_request, reply, done) => {
      site.visitorLog.answered(reply.statusCode)
      done()
    })
    registerQrImageRoutes(scope, site)
    registerAvatarRoutes(scope)
    registerTrackingScriptRoute(scope)
    registerSocialCardRoutes(scope, site)
    registerCampaignPageRoutes(scope, site)
    registerRedirectRoutes(scope, site)
  })
}
