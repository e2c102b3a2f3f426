// Two-factor sign-in (ADR 025): GET /api/auth/two-factor, POST /api/auth/two-factor/setup,
// POST /api/auth/two-factor/enable, POST /api/auth/two-factor/disable, the sign-in's second step
// POST /api/auth/two-factor/verify, and an owner's PUT /api/workspace/two-factor. Every code is
// counted by the sign-in throttle (http/sign-in-throttle.ts), per person and per address, apart
// from wrong passwords (ADR 027); a waiting session ends after a few wrong codes.
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import type { SessionCookie } from '../../http/session-cookie.js'
import type { SignInThrottle, WaitingSession } from '../../http/sign-in-throttle.js'
import { MessageResponse } from '../../core/schemas.js'
import { toAccountRecord } from './account.mapper.js'
import { personSubject } from './session.service.js'
import type { TwoFactorService } from './two-factor.service.js'
import { CodeBody, EnrolmentResponse, RecoveryCodesResponse, RequirementBody, SignInResponse, TwoFactorStatusResponse } from './two-factor.schemas.js'

const tags = ['auth']

/** What the routes use, handed over by app.ts. */
export interface TwoFactorRouteDependencies {
  twoFactor: TwoFactorService
  throttle: SignInThrottle
  sessionCookie: SessionCookie
  publicUrl: string
}

export function registerTwoFactorRoutes(app: App, { twoFactor, throttle, sessionCookie, publicUrl }: TwoFactorRouteDependencies): void {
  /** Runs a check of `code` under the code throttle of the acting person; `waiting`: the half-signed-in session, ended by too many wrong codes. */
  function throttled<T>(request: { ip: string; account: { personId: number | null } | null }, check: () => Promise<T>, waiting?: WaitingSession): Promise<T> {
    return throttle.guardCode(personSubject(request.account?.personId ?? 0), request.ip, check, waiting)
  }

  app.get('/api/auth/two-factor', {
    schema: { tags, summary: 'Whether you sign in with a second factor, your recovery codes left, and whether the workspace requires one', response: { 200: TwoFactorStatusResponse, ...errorResponses } },
  }, async (request) => ({ error: 0 as const, data: await twoFactor.status(accountOf(request)) }))

  app.post('/api/auth/two-factor/setup', {
    schema: {
      tags,
      summary: 'Begin setting up two-factor sign-in: a new secret as a QR code and as text; confirm it with one code',
      description: 'A signed-in session only (an API key has no second factor). Starting again draws a new secret.',
      response: { 200: EnrolmentResponse, ...errorResponses },
    },
  }, async (request) => ({ error: 0 as const, data: await twoFactor.beginEnrolment(accountOf(request)) }))

  app.post('/api/auth/two-factor/enable', {
    schema: {
      tags,
      summary: 'Turn two-factor sign-in on with a code of the secret being set up; answers ten recovery codes, shown this once',
      description: 'Every other session of yours is signed out (they were opened with the password alone); this one stays.',
      body: CodeBody,
      response: { 200: RecoveryCodesResponse, ...errorResponses },
    },
  }, async (request) => {
    const account = accountOf(request)
    const recoverycodes = await throttled(request, () => twoFactor.confirmEnrolment(account, request.body.code))
    return { error: 0 as const, data: { recoverycodes } }
  })

  app.post('/api/auth/two-factor/disable', {
    schema: { tags, summary: 'Turn two-factor sign-in off, with a code or a recovery code', body: CodeBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    await throttled(request, () => twoFactor.disable(account, request.body.code))
    return { error: 0 as const, message: 'Two-factor sign-in has been turned off.' }
  })

  app.post('/api/auth/two-factor/verify', {
    schema: {
      tags,
      summary: 'The second step of signing in: a code from the authenticator app or a recovery code; replaces the session cookie',
      description: 'With the session cookie POST /api/auth/login set (answered with `step: "code"`). A code is accepted once; a recovery code once. Wrong codes are throttled per person apart from passwords, and a right password does not clear them (429 with Retry-After); the fifth wrong code of one waiting session ends it (401 `invalid_session`: sign in again).',
      body: CodeBody,
      response: { 200: SignInResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const account = accountOf(request)
    const waiting = account.signInStep === 'code' && account.sessionId !== undefined
      ? { id: account.sessionId, end: async () => { await twoFactor.endWaitingSession(account); sessionCookie.clear(reply) } }
      : undefined
    const signedIn = await throttled(request, () => twoFactor.completeSignIn(account, request.body.code, { userAgent: request.headers['user-agent'], ip: request.ip }), waiting)
    sessionCookie.set(reply, signedIn.token)
    return { error: 0 as const, data: toAccountRecord(signedIn.account, publicUrl), ...(signedIn.step ? { step: signedIn.step } : {}) }
  })

  app.put('/api/workspace/two-factor', {
    schema: {
      tags: ['members'],
      summary: 'Require (or stop requiring) a second factor of every member of the workspace',
      description: 'Owners only, who must sign in with a second factor themselves. Members without one may only set it up until they have.',
      body: RequirementBody,
      response: { 200: MessageResponse, ...errorResponses },
    },
  }, async (request) => {
    await twoFactor.setRequired(accountOf(request), request.body.required)
    return { error: 0 as const, message: request.body.required ? 'Every member now signs in with a second factor.' : 'A second factor is no longer required.' }
  })
}
