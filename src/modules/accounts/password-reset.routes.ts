// Forgotten passwords (issue 38, ADR 036): POST /api/auth/password/forgot mails a reset link,
// POST /api/auth/password/reset uses it. No credential; CSRF-checked like signing in.
import type { App } from '../../http/app-instance.js'
import { errorResponses, ErrorEnvelope } from '../../http/schemas.js'
import type { SignInThrottle } from '../../http/sign-in-throttle.js'
import { MessageResponse } from '../../core/schemas.js'
import type { PasswordResetService } from './password-reset.service.js'
import type { SessionService } from './session.service.js'
import { ForgotPasswordBody, ResetPasswordBody } from './mailed-link.schemas.js'

/** The one answer to asking, whoever the login names (or nobody). */
export const FORGOT_PASSWORD_ANSWER = 'If this username or address has an account, we have sent a link to reset its password. It works for 30 minutes.'

export interface PasswordResetRouteDependencies {
  resets: PasswordResetService
  sessions: Pick<SessionService, 'signInSubject'>
  throttle: SignInThrottle
}

const tags = ['auth']

export function registerPasswordResetRoutes(app: App, { resets, sessions, throttle }: PasswordResetRouteDependencies): void {
  app.post('/api/auth/password/forgot', {
    schema: {
      tags,
      summary: 'Mail a link to reset the password of the account a username or e-mail address names',
      description: 'The same answer whether the login names an account or not. The link (`{PUBLIC_URL}/app/reset-password#token=…`) works once, for 30 minutes. Throttled per account (or login asked for) and per client address (429 with Retry-After). Needs `Origin` and `X-Linkwell-CSRF: 1` like signing in.',
      security: [],
      body: ForgotPasswordBody,
      response: { 200: MessageResponse, ...errorResponses },
    },
  }, async (request) => {
    const { login } = request.body
    const subject = await sessions.signInSubject(login)
    await throttle.guardMail(subject, request.ip, () => resets.requestReset(login))
    return { error: 0 as const, message: FORGOT_PASSWORD_ANSWER }
  })

  app.post('/api/auth/password/reset', {
    schema: {
      tags,
      summary: 'Set a new password with a mailed reset link; every session of the person ends',
      description: 'A token that is none of ours: 400 `link_invalid`; one used already or past its 30 minutes: 410 `link_expired`. The password follows the usual rule (8 to 256 characters); a refused password does not use the link up. API keys are not touched.',
      security: [],
      body: ResetPasswordBody,
      response: { 200: MessageResponse, ...errorResponses, 410: ErrorEnvelope },
    },
  }, async (request) => {
    await resets.resetPassword(request.body.token, request.body.password, request.ip)
    return { error: 0 as const, message: 'Your password has been changed. Sign in with the new one.' }
  })
}
