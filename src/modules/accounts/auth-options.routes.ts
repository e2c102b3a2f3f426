// GET /api/auth/options: what the sign-in page may offer before anyone signs in (issue 38): whether
// sign-up is open (SIGNUP, SIGNUP_DOMAINS) and whether the instance can mail a forgotten password.
// Its own file, so that other ways of signing in can add what they offer beside it.
import type { App } from '../../http/app-instance.js'
import { errorResponses } from '../../http/schemas.js'
import type { Config } from '../../config.js'
import { AuthOptionsResponse } from './mailed-link.schemas.js'

export interface AuthOptionsRouteDependencies {
  signup: Config['signup']
  /** Whether a mail server is configured (SMTP_URL). */
  mail: boolean
}

export function registerAuthOptionsRoutes(app: App, { signup, mail }: AuthOptionsRouteDependencies): void {
  app.get('/api/auth/options', {
    schema: {
      tags: ['auth'],
      summary: 'What the sign-in page offers: sign-up (closed, open, or for some domains) and mailed password resets',
      security: [],
      response: { 200: AuthOptionsResponse, ...errorResponses },
    },
  }, async () => ({
    error: 0 as const,
    data: { signup: signup.mode, ...(signup.mode === 'domains' ? { domains: signup.domains } : {}), mail },
  }))
}
