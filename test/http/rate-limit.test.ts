import { afterEach, describe, expect, it } from 'vitest'
import { apiClient, createAccount, createTestApp, type ApiResponse, type TestContext } from '../helpers/test-app.js'

const RATE_LIMITED = { error: 1, message: 'Too Many API Requests.', code: 'rate_limited' }

function rateHeaders(response: ApiResponse) {
  return {
    limit: Number(response.headers['x-ratelimit-limit']),
    remaining: Number(response.headers['x-ratelimit-remaining']),
    reset: Number(response.headers['x-ratelimit-reset']),
  }
}

/** The reset header is Unix seconds at most one window (60 s) ahead. */
function expectResetWithinWindow(response: ApiResponse) {
  const reset = rateHeaders(response).reset
  const nowSeconds = Date.now() / 1000
  expect(Number.isInteger(reset)).toBe(true)
  expect(reset).toBeGreaterThanOrEqual(Math.floor(nowSeconds))
  expect(reset).toBeLessThanOrEqual(Math.ceil(nowSeconds) + 60)
}

describe('rate limit (decisions §3)', () => {
  let context: TestContext
  afterEach(() => context?.close())

  it('lets 30 requests a minute through, then answers 429 with Retry-After; another account is unaffected', async () => {
    context = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30' } })
    const busy = apiClient(context.app, (await createAccount(context)).apiKey)
    const quiet = apiClient(context.app, (await createAccount(context)).apiKey)
    for (let request = 1; request <= 30; request += 1) {
      const response = await busy('GET', '/api/account')
      expect(response.statusCode, `request ${request}`).toBe(200)
      expect(rateHeaders(response)).toMatchObject({ limit: 30, remaining: 30 - request })
    }
    const refused = await busy('GET', '/api/account')
    expect(refused.statusCode).toBe(429)
    expect(refused.data).toEqual(RATE_LIMITED)
    const retryAfter = Number(refused.headers['retry-after'])
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(rateHeaders(refused)).toMatchObject({ limit: 30, remaining: 0 })
    expectResetWithinWindow(refused)

    // Still refused, and Remaining never goes below zero.
    const again = await busy('POST', '/api/campaign/add', { name: 'not created' })
    expect(again.statusCode).toBe(429)
    expect(rateHeaders(again).remaining).toBe(0)

    const other = await quiet('GET', '/api/account')
    expect(other.statusCode).toBe(200)
    expect(rateHeaders(other)).toMatchObject({ limit: 30, remaining: 29 })
  })

  it('refused requests do nothing', async () => {
    context = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1' } })
    const api = apiClient(context.app, (await createAccount(context)).apiKey)
    expect((await api('GET', '/api/campaigns')).statusCode).toBe(200)
    expect((await api('POST', '/api/campaign/add', { name: 'should not exist' })).statusCode).toBe(429)
    const rows = await context.database.db.selectFrom('campaigns').select('id').execute()
    expect(rows).toEqual([])
  })

  it('sends the three headers on 200, 401 and 404 responses', async () => {
    context = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30' } })
    const api = apiClient(context.app, (await createAccount(context)).apiKey)
    const ok = await api('GET', '/api/account')
    const missing = await api('DELETE', '/api/campaign/999999/delete')
    const noRoute = await api('GET', '/api/no-such-endpoint')
    const anonymous = await apiClient(context.app, null)('GET', '/api/account')
    expect([ok.statusCode, missing.statusCode, noRoute.statusCode, anonymous.statusCode]).toEqual([200, 404, 404, 401])
    for (const response of [ok, missing, noRoute, anonymous]) {
      const headers = rateHeaders(response)
      expect(headers.limit).toBe(30)
      expect(headers.remaining).toBeGreaterThanOrEqual(0)
      expect(headers.remaining).toBeLessThan(30)
      expectResetWithinWindow(response)
    }
    // The three keyed requests count against the same window.
    expect(rateHeaders(noRoute).remaining).toBe(27)
  })

  it('limits requests without a valid key per client address', async () => {
    context = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } })
    const guesser = apiClient(context.app, `lw_${'x'.repeat(43)}`)
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await guesser('GET', '/api/account')).statusCode).toBe(401)
    const refused = await guesser('GET', '/api/account')
    expect(refused.statusCode).toBe(429)
    expect(refused.data).toEqual(RATE_LIMITED)
    // A valid key is counted on its own, not with the address's failed guesses.
    const valid = await apiClient(context.app, (await createAccount(context)).apiKey)('GET', '/api/account')
    expect(valid.statusCode).toBe(200)
  })

  it("uses the plan's apirate instead of the server default", async () => {
    context = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30' } })
    const plan = await context.database.db
      .insertInto('plans')
      .values({ name: 'Slow', code: 'slow', apirate: 5, limits: '{}', is_default: 0, created_at: '2026-01-01 00:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const api = apiClient(context.app, (await createAccount(context, { plan: plan.id })).apiKey)
    for (let request = 1; request <= 5; request += 1) {
      const response = await api('GET', '/api/account')
      expect(response.statusCode).toBe(200)
      expect(rateHeaders(response)).toMatchObject({ limit: 5, remaining: 5 - request })
    }
    const refused = await api('GET', '/api/account')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['x-ratelimit-limit']).toBe('5')
  })
})
