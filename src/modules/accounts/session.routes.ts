// The dashboard's sign-in: POST /api/auth/login, POST /api/auth/logout, GET /api/auth/session (who is
// signed in, if anyone), GET /api/auth/sessions,
// DELETE /api/auth/session/{id}/delete. The session lives in an HttpOnly cookie (http/session-cookie.ts);
// the API gate (http/auth.ts) resolves it and checks the origin of unsafe requests.
import type { App } from '../../http/app-instance.js'
import type { AccountService } from './account.service.js'
import type { SessionService } from './session.service.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import type { SessionCookie } from '../../http/session-cookie.js'
import type { SignInThrottle } from '../../http/sign-in-throttle.js'
import { MessageResponse } from '../../core/schemas.js'
import { toAccountRecord } from './account.mapper.js'
import { LoginBody, SessionListResponse, SessionParams } from './session.schemas.js'
import { SignInResponse } from './two-factor.schemas.js'

/** What the sign-in routes need of the transport besides the services. */
export interface SignInTransport {
  throttle: SignInThrottle
  sessionCookie: SessionCookie
}

const tags = ['auth']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface SessionRouteDependencies extends SignInTransport {
  sessions: SessionService
  /** The signed-in account as GET /api/auth/session shows it. */
  accounts: Pick<AccountService, 'getAccountOrThrow'>
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
}

export function registerSessionRoutes(app: App, { sessions, accounts, publicUrl, throttle, sessionCookie }: SessionRouteDependencies): void {
  app.post('/api/auth/login', {
    schema: {
      tags,
      summary: 'Sign in to the dashboard with a username or e-mail address and the password; sets the session cookie',
      description: 'Needs `Origin` (or `Referer`) equal to the server\'s public URL and the header `X-Linkwell-CSRF: 1`. Wrong passwords are throttled per account and per address (429 with Retry-After). A person with a second factor gets `data: null, step: "code"` and a session that only sends its code (POST /api/auth/two-factor/verify); one whose workspace requires a second factor they do not have gets `step: "enrol"`.',
      security: [],
      body: LoginBody,
      response: { 200: SignInResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const { login, password } = request.body
    const subject = await sessions.signInSubject(login)
    const signedIn = await throttle.guard(subject, request.ip, () =>
      sessions.signIn(login, password, { userAgent: request.headers['user-agent'], ip: request.ip }),
    )
    sessionCookie.set(reply, signedIn.token)
    // The workspace's fields wait for the second factor.
    if (signedIn.step === 'code') return { error: 0 as const, data: null, step: signedIn.step }
    return { error: 0 as const, data: toAccountRecord(signedIn.account, publicUrl), ...(signedIn.step ? { step: signedIn.step } : {}) }
  })

  app.get('/api/auth/session', {
    schema: {
      tags,
      summary: 'Who the request is signed in as: the account, or null without a live session (no 401)',
      description: 'The dashboard asks this first: a visitor who has not signed in gets `data: null` with a 200, so the browser logs no refused request. A session cookie that has ended is cleared. An Authorization header is checked as everywhere (a bad key is a 401).',
      security: [],
      response: { 200: SignInResponse, ...errorResponses },
    },
  }, async (request) => {
    if (!request.account) return { error: 0 as const, data: null }
    const step = request.account.signInStep
    if (step === 'code') return { error: 0 as const, data: null, step }
    const account = await accounts.getAccountOrThrow(request.account.id)
    return { error: 0 as const, data: toAccountRecord(account, publicUrl), ...(step ? { step } : {}) }
  })

  app.post('/api/auth/logout', {
    schema: { tags, summary: 'Sign out: ends this session and clears its cookie', response: { 200: MessageResponse, ...errorResponses } },
  }, async (request, reply) => {
    const account = accountOf(request)
    await sessions.signOut(account.personId, account.sessionId)
    sessionCookie.clear(reply)
    return { error: 0 as const, message: 'You have been signed out.' }
  })

  app.get('/api/auth/sessions', {
    schema: { tags, summary: 'List your signed-in browsers, most recently used first', response: { 200: SessionListResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    return { error: 0 as const, data: { sessions: await sessions.listSessions(account.personId, account.sessionId) } }
  })

  app.delete('/api/auth/session/:id/delete', {
    schema: { tags, summary: 'Sign out one of your sessions', params: SessionParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request, reply) => {
    const account = accountOf(request)
    await sessions.revokeSession(account, request.params.id)
    if (request.params.id === account.sessionId) sessionCookie.clear(reply)
    return { error: 0 as const, message: 'The session has been signed out.' }
  })
}
