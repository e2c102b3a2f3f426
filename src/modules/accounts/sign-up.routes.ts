// Sign-up (issue 38, ADR 036): POST /api/auth/signup mails a confirmation link (SIGNUP=open or
// domains; closed: 403), POST /api/auth/signup/confirm makes the account and signs its person in.
// No credential; CSRF-checked like signing in.
import type { App } from '../../http/app-instance.js'
import { errorResponses, ErrorEnvelope } from '../../http/schemas.js'
import type { SessionCookie } from '../../http/session-cookie.js'
import type { SignInThrottle } from '../../http/sign-in-throttle.js'
import { MessageResponse } from '../../core/schemas.js'
import { toAccountRecord } from './account.mapper.js'
import type { SessionService } from './session.service.js'
import type { SignUpService } from './sign-up.service.js'
import { SignUpBody, TokenBody } from './mailed-link.schemas.js'
import { SignInResponse } from './two-factor.schemas.js'

/** The one answer to a sign-up, whether the address or the username was free or taken. */
export const SIGN_UP_ANSWER = 'Check your inbox: we have sent a message to this address. Open its link within 24 hours to finish.'

export interface SignUpRouteDependencies {
  signUps: SignUpService
  sessions: Pick<SessionService, 'openSession'>
  throttle: SignInThrottle
  sessionCookie: SessionCookie
  publicUrl: string
}

const tags = ['auth']

export function registerSignUpRoutes(app: App, { signUps, sessions, throttle, sessionCookie, publicUrl }: SignUpRouteDependencies): void {
  app.post('/api/auth/signup', {
    schema: {
      tags,
      summary: 'Sign up: mails a link that confirms the address; the account is made when it is opened',
      description: 'Answered only when the instance allows sign-up (SIGNUP=open, or =domains for addresses at SIGNUP_DOMAINS); otherwise 403 with the rule. The same answer whether the address or the username is taken (the mail says so instead). Throttled per address and per client address (429 with Retry-After). Needs `Origin` and `X-Linkwell-CSRF: 1` like signing in.',
      security: [],
      body: SignUpBody,
      response: { 200: MessageResponse, ...errorResponses },
    },
  }, async (request) => {
    const subject = `signup:${request.body.email.trim().toLowerCase()}`
    await throttle.guardMail(subject, request.ip, () => signUps.signUp(request.body))
    return { error: 0 as const, message: SIGN_UP_ANSWER }
  })

  app.post('/api/auth/signup/confirm', {
    schema: {
      tags,
      summary: 'Confirm a sign-up with its mailed link: makes the account (its own workspace, the default plan) and signs in',
      description: 'A token that is none of ours: 400 `link_invalid`; used already or past its 24 hours: 410 `link_expired`.',
      security: [],
      body: TokenBody,
      response: { 200: SignInResponse, ...errorResponses, 410: ErrorEnvelope },
    },
  }, async (request, reply) => {
    const { accountId, personId } = await signUps.confirmSignUp(request.body.token)
    const signedIn = await sessions.openSession(personId, accountId, { userAgent: request.headers['user-agent'], ip: request.ip })
    sessionCookie.set(reply, signedIn.token)
    return { error: 0 as const, data: toAccountRecord(signedIn.account, publicUrl) }
  })
}
