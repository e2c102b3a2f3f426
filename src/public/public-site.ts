// Everything visitors reach without a key, in one plugin scope: QR images and tracking addresses,
// avatars, campaign rotators and list pages, and (last, since `/:alias` matches any one segment)
// short links and bio pages. The scope has its own form parser and answers errors with HTML pages.
import type { App } from '../http/app-instance.js'
import type { Services } from '../services.js'
import { registerAvatarRoutes } from './avatar.routes.js'
import { registerCampaignPageRoutes } from './campaign-pages.routes.js'
import { sendPublicError } from './error-pages.js'
import { installFormBodyParser } from './form-body.js'
import { registerQrImageRoutes } from './qr-image.routes.js'
import { registerRedirectRoutes } from './redirect.routes.js'
import type { VisitorThrottles } from './visitor-throttles.js'

export async function registerPublicSite(app: App, services: Services, throttles: VisitorThrottles): Promise<void> {
  await app.register(async (scope: App) => {
    installFormBodyParser(scope)
    scope.setErrorHandler(sendPublicError)
    registerQrImageRoutes(scope, services)
    registerAvatarRoutes(scope, services)
    registerCampaignPageRoutes(scope, services)
    registerRedirectRoutes(scope, services, throttles)
  })
}
