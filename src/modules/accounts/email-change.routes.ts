// E-mail changes from the dashboard (issue 38, ADR 036): POST /api/account/email mails a link to
// the new address (the current password confirms who asks), POST /api/auth/email/confirm uses it
// (no credential: the link may be opened in another browser). A key changes the address directly
// through PUT /api/account/update, as the spec says.
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses, ErrorEnvelope } from '../../http/schemas.js'
import type { SignInThrottle } from '../../http/sign-in-throttle.js'
import { MessageResponse } from '../../core/schemas.js'
import type { EmailChangeService } from './email-change.service.js'
import { personSubject } from './session.service.js'
import { EmailChangeBody, TokenBody } from './mailed-link.schemas.js'

export interface EmailChangeRouteDependencies {
  emailChanges: EmailChangeService
  throttle: SignInThrottle
}

export function registerEmailChangeRoutes(app: App, { emailChanges, throttle }: EmailChangeRouteDependencies): void {
  app.post('/api/account/email', {
    schema: {
      tags: ['account'],
      summary: 'Change your sign-in address: mails a link to the new one, changed when it is opened',
      description: 'A session only, with the current password (`current`); wrong ones are throttled like sign-ins (429 with Retry-After). The old address is told once the change is made. Keys change the address directly with PUT /api/account/update.',
      body: EmailChangeBody,
      response: { 200: MessageResponse, ...errorResponses },
    },
  }, async (request) => {
    const account = accountOf(request)
    const { email } = await throttle.guard(personSubject(account.personId ?? 0), request.ip, () => emailChanges.requestChange(account, request.body))
    return { error: 0 as const, message: `We have sent a link to ${email}. Your address changes when you open it (within 24 hours).` }
  })

  app.post('/api/auth/email/confirm', {
    schema: {
      tags: ['auth'],
      summary: 'Confirm a new sign-in address with its mailed link',
      description: 'A token that is none of ours: 400 `link_invalid`; used already or past its 24 hours: 410 `link_expired`.',
      security: [],
      body: TokenBody,
      response: { 200: MessageResponse, ...errorResponses, 410: ErrorEnvelope },
    },
  }, async (request) => {
    const email = await emailChanges.confirmChange(request.body.token, request.ip)
    return { error: 0 as const, message: `Your sign-in address is now ${email}.` }
  })
}
