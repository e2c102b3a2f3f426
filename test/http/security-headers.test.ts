// CORS for the configured origins only, preflights outside the rate limit, and helmet's headers
// on the API and its documentation, while visitors' pages keep their own policies (issue 13).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { createRateLimiter } from '../../src/http/rate-limit.js'
import { apiClient, createAccount, createTestApp, type TestAccount, type TestContext } from '../helpers/test-app.js'
import { insertLinkRow } from '../helpers/factories.js'
import { visit } from '../public/redirect-test-support.js'

const ALLOWED = 'https://app.example.com'

function preflight(context: TestContext, url: string, origin = ALLOWED) {
  return context.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } })
}

describe('with CORS_ORIGINS', () => {
  let context: TestContext
  let account: TestAccount

  beforeAll(async () => {
    context = await createTestApp({ env: { CORS_ORIGINS: `${ALLOWED}, https://other.example.org`, RATE_LIMIT_PER_MINUTE: '3' }, rateLimiter: createRateLimiter() })
    account = await createAccount(context)
  })
  afterAll(() => context.close())

  it('answers preflights of allowed origins without counting them, and names the origin on API answers', async () => {
    for (let round = 0; round < 10; round += 1) {
      const response = await preflight(context, '/api/campaign/add')
      expect(response.statusCode).toBe(204)
      expect(response.headers['access-control-allow-origin']).toBe(ALLOWED)
      expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization')
    }
    const api = apiClient(context.app, account.apiKey)
    const real = await api('GET', '/api/account', undefined, { origin: ALLOWED })
    expect(real.statusCode).toBe(200)
    expect(real.headers['access-control-allow-origin']).toBe(ALLOWED)
    expect(String(real.headers['access-control-expose-headers'])).toContain('X-RateLimit-Remaining')
    // Ten preflights and one call: only the call counted.
    expect(real.headers['x-ratelimit-remaining']).toBe('2')
  })

  it('names no other origin, and does not open visitors\' pages to any', async () => {
    const stranger = await preflight(context, '/api/campaign/add', 'https://evil.example')
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined()
    const page = await preflight(context, '/some-alias')
    expect(page.statusCode).toBe(404)
    expect(page.headers['access-control-allow-origin']).toBeUndefined()
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
  })

  it('refuses a configuration that is not a list of origins', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/CORS_ORIGINS/)
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/)
    expect(loadConfig({ CORS_ORIGINS: 'https://A.example/ ,http://b.example:8080' }).corsOrigins).toEqual(['https://a.example', 'http://b.example:8080'])
  })
})

describe('without CORS_ORIGINS', () => {
  let context: TestContext
  let account: TestAccount

  beforeAll(async () => {
    context = await createTestApp()
    account = await createAccount(context)
  })
  afterAll(() => context.close())

  it('lets no origin in', async () => {
    const response = await preflight(context, '/api/campaign/add')
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ error: 1, code: 'not_found' })
  })

  it('sends helmet\'s headers on API answers, refusals included, with HSTS under an https PUBLIC_URL', async () => {
    const api = apiClient(context.app, account.apiKey)
    for (const response of [await api('GET', '/api/account'), await apiClient(context.app, null)('GET', '/api/account'), await api('GET', '/api/nothing-here')]) {
      expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'")
      expect(response.headers['x-content-type-options']).toBe('nosniff')
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000')
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN')
    }
  })

  it('lets the documentation UI load its own scripts and styles', async () => {
    const docs = await context.app.inject({ method: 'GET', url: '/api/docs/' })
    expect(docs.statusCode).toBe(200)
    expect(docs.headers['content-security-policy']).toContain("script-src 'self'")
    expect(docs.headers['content-security-policy']).toContain("frame-ancestors 'none'")
  })

  it('leaves visitors\' pages their own policy, and QR images embeddable anywhere', async () => {
    const link = await insertLinkRow(context.database.db, account.id, { type: 'frame', url: 'https://news.example.org/story' })
    const frame = await visit(context.app, `/${link.alias}`)
    expect(frame.statusCode).toBe(200)
    expect(frame.headers['content-security-policy']).toContain('frame-src https://news.example.org')
    expect(frame.headers['strict-transport-security']).toBeUndefined()
    expect(frame.headers['x-frame-options']).toBeUndefined()
    const qr = await apiClient(context.app, account.apiKey)('POST', '/api/qr/add', { type: 'text', data: 'hello' })
    const image = await visit(context.app, new URL(qr.data.link).pathname)
    expect(image.statusCode).toBe(200)
    expect(image.headers['cross-origin-resource-policy']).toBeUndefined()
  })
})

describe('under an http PUBLIC_URL', () => {
  it('sends no HSTS', async () => {
    const context = await createTestApp({ env: { PUBLIC_URL: 'http://localhost:3000' } })
    try {
      const response = await apiClient(context.app, null)('GET', '/api/account')
      expect(response.headers['strict-transport-security']).toBeUndefined()
      expect(response.headers['x-content-type-options']).toBe('nosniff')
    } finally {
      await context.close()
    }
  })
})
