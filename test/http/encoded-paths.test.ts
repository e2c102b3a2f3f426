// Percent-encoded paths meet the same gates as plain ones (issue 36): the router decodes
// `/%61pi/auth/login` to the sign-in route, so every hook decides by the route it matched (CSRF
// check and rate limit, security headers, CORS, the API's envelope, request logging).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { capturedLogger } from '../helpers/captured-logger.js'
import { apiClient, createAccount, createTestApp, type TestAccount, type TestContext } from '../helpers/test-app.js'

const PASSWORD = 'encoded paths password'
const ALLOWED = 'https://app.example.com'

describe('percent-encoded paths', () => {
  let context: TestContext
  let owner: TestAccount
  let folder: string
  const { logger, lines } = capturedLogger('info')

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-encoded-'))
    fs.writeFileSync(path.join(folder, 'index.html'), '<!doctype html><div id="root"></div>')
    context = await createTestApp({ env: { DASHBOARD_DIR: folder, CORS_ORIGINS: ALLOWED, LOG_LEVEL: 'info' }, logger })
    owner = await createAccount(context, { password: PASSWORD })
  })
  afterAll(async () => {
    await context.close()
    fs.rmSync(folder, { recursive: true, force: true })
  })

  it('signing in at /%61pi/auth/login is CSRF-checked and rate-limited like /api/auth/login', async () => {
    for (const url of ['/api/auth/login', '/%61pi/auth/login', '/%61%70%69/auth/%6Cogin']) {
      const response = await context.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ login: owner.username, password: PASSWORD }) })
      expect(response.statusCode, url).toBe(403)
      expect(response.headers['set-cookie'], url).toBeUndefined()
      expect(response.headers['x-ratelimit-limit'], url).toBeDefined()
    }
  })

  it('serves the dashboard at /%61pp/ under its policy, and the API at /%61pi/ under the API\'s', async () => {
    for (const url of ['/%61pp/', '/%61pp', '/%61pp/links']) {
      const page = await context.app.inject({ method: 'GET', url })
      expect(page.statusCode, url).toBe(200)
      expect(page.headers['content-security-policy'], url).toContain("frame-ancestors 'none'")
      expect(page.headers['content-security-policy'], url).toContain("script-src 'self'")
    }
    const account = await apiClient(context.app, owner.apiKey)('GET', '/%61pi/account')
    expect(account.statusCode).toBe(200)
    expect(account.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'")
    expect(account.headers['x-ratelimit-limit']).toBeDefined()
  })

  it('answers CORS preflights of an encoded API path, and unknown encoded API paths with the envelope', async () => {
    const preflight = await context.app.inject({ method: 'OPTIONS', url: '/%61pi/url/add', headers: { origin: ALLOWED, 'access-control-request-method': 'POST' } })
    expect(preflight.headers['access-control-allow-origin']).toBe(ALLOWED)
    const unknown = await apiClient(context.app, owner.apiKey)('GET', '/%61pi/nothing-here')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.data).toMatchObject({ error: 1, code: 'not_found' })
    const anonymous = await apiClient(context.app, null)('GET', '/%61pi/nothing-here')
    expect(anonymous.statusCode).toBe(401)
  })

  it('logs API requests at info whatever their spelling (visitors\' are counted instead)', async () => {
    lines.length = 0
    await apiClient(context.app, owner.apiKey)('GET', '/%61pi/account')
    expect(lines.some((line) => line.msg === 'incoming request' && (line.req as { url?: string } | undefined)?.url === '/%61pi/account')).toBe(true)
  })
})
