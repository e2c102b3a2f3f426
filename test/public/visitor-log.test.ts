// Fast by default (ADR 014): at LOG_LEVEL=info a visitor's redirect takes the short path and writes
// no line of its own, its answer counted in one summary line; API requests keep their lines; at
// debug every request is the router's, with Fastify's lines.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createVisitorLog } from '../../src/public/visitor-log.js'
import { capturedLogger } from '../helpers/captured-logger.js'
import { createAccount, createLink } from '../helpers/factories.js'
import { apiClient, createTestApp, type TestContext } from '../helpers/test-app.js'

describe('what a visit logs', () => {
  let context: TestContext | undefined
  afterEach(async () => {
    await context?.close()
    context = undefined
    vi.restoreAllMocks()
  })

  it.each(['info', 'warn'])('at %s: redirects take the short path and write no line of their own; the API keeps its lines', async (level) => {
    const { logger, lines } = capturedLogger(level)
    context = await createTestApp({ env: { LOG_LEVEL: level }, logger })
    const owner = await createAccount(context)
    const link = await createLink(context, owner)
    const routing = vi.spyOn(context.app, 'routing')
    await context.app.inject({ method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': 'Mozilla/5.0 Firefox/120.0' } })
    routing.mockClear()
    lines.length = 0
    for (let visit = 0; visit < 5; visit += 1) {
      const response = await context.app.inject({ method: 'GET', url: `/${link.alias}`, headers: { 'user-agent': 'Mozilla/5.0 Firefox/120.0' } })
      expect(response.statusCode).toBe(302)
    }
    expect(routing).not.toHaveBeenCalled()
    // A page from the router writes no line at info either.
    expect((await context.app.inject({ method: 'GET', url: '/no-such-alias-here' })).statusCode).toBe(404)
    expect(lines).toEqual([])
    const api = await apiClient(context.app, owner.apiKey)('GET', '/api/account')
    expect(api.statusCode).toBe(200)
    const apiLines = lines.filter((line) => (line.req as { url?: string } | undefined)?.url === '/api/account' || line.msg === 'request completed')
    expect(apiLines.length).toBe(level === 'info' ? 2 : 0)
  })

  it('at debug: every request is routed and logged', async () => {
    const { logger, lines } = capturedLogger('debug')
    context = await createTestApp({ env: { LOG_LEVEL: 'debug' }, logger })
    const owner = await createAccount(context)
    const link = await createLink(context, owner)
    const routing = vi.spyOn(context.app, 'routing')
    await context.app.inject({ method: 'GET', url: `/${link.alias}` })
    await context.app.inject({ method: 'GET', url: `/${link.alias}` })
    expect(routing).toHaveBeenCalledTimes(2)
    expect(lines.filter((line) => line.msg === 'incoming request' && (line.req as { url: string }).url === `/${link.alias}`)).toHaveLength(2)
  })

  it('writes one summary line per interval with the answers by kind, and none when idle', () => {
    const { logger, lines } = capturedLogger('info')
    const log = createVisitorLog(logger, 3_600_000)
    try {
      log.flush()
      expect(lines).toEqual([])
      log.redirected()
      for (const status of [302, 301, 200, 404, 410, 401, 429, 503]) log.answered(status)
      log.flush()
      expect(lines).toEqual([expect.objectContaining({ msg: 'visitor answers', visitorAnswers: { redirects: 3, pages: 1, notFound: 2, refused: 2, failed: 1 } })])
      log.flush()
      expect(lines).toHaveLength(1)
    } finally {
      log.close()
    }
  })

  it('counts the answers of both paths in the line written when the app closes', async () => {
    const { logger, lines } = capturedLogger('info')
    context = await createTestApp({ env: { LOG_LEVEL: 'info' }, logger })
    const owner = await createAccount(context)
    const link = await createLink(context, owner)
    for (let visit = 0; visit < 3; visit += 1) await context.app.inject({ method: 'GET', url: `/${link.alias}` })
    await context.app.inject({ method: 'GET', url: '/no-such-alias-here' })
    await context.close()
    context = undefined
    expect(lines.filter((line) => line.msg === 'visitor answers')).toEqual([expect.objectContaining({ visitorAnswers: { redirects: 3, pages: 0, notFound: 1, refused: 0, failed: 0 } })])
  })
})
