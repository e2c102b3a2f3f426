// The statistics routes answer the same through ClickHouse as through the raw clicks (issue 40):
// two apps on one database, one reading the raw clicks, the other ClickHouse (ANALYTICS_STORE=
// clickhouse://…, its own clickhouse-server for this file), are asked the same link, QR and
// workspace questions: filters, granularities, time zones across a DST change, compare=previous,
// the live minutes; their bodies are equal. Then ClickHouse stops: statistics answer 503 in the
// envelope with a clear message, within the query timeout, while redirects and click recording go
// on; started again, the feeder catches up and the clicks recorded meanwhile are counted.
import net from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createRawClickRepository } from '../../../src/modules/statistics/raw-click.repository.js'
import { createStatisticsEngines } from '../../../src/modules/statistics/statistics-engines.js'
import { writeEnrichedClicks } from '../../../src/analytics/click-writer.js'
import { DAY_MS, MINUTE_MS } from '../../../src/core/time.js'
import { loadConfig } from '../../../src/config.js'
import { seedConversions, spreadClicks, type Target } from '../../analytics/engine-parity-support.js'
import { describeWithClickhouse } from '../../helpers/clickhouse.js'
import { startClickhouseServer, type ClickhouseServer } from '../../helpers/clickhouse-server.js'
import { createAccount, createCampaign, createLink, createQrCode, servicesFor, type TestAccount, type WithServices } from '../../helpers/factories.js'
import { apiClient, buildAppOn, type ApiClient } from '../../helpers/test-app.js'
import { startTcpProxy } from '../../helpers/tcp-proxy.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database.js'

describeWithClickhouse('statistics routes through ClickHouse', () => {
  let server: ClickhouseServer
  let database: TestDatabase
  let made: WithServices
  let owner: TestAccount
  const apps: Array<{ close(): Promise<void> }> = []
  let raw: ApiClient
  let fed: ApiClient
  let fedApp: Awaited<ReturnType<typeof buildAppOn>>
  let rawBuilt: Awaited<ReturnType<typeof buildAppOn>>
  const rawApp = () => rawBuilt
  let linkA: { id: number; alias: string }
  let qr: { id: number }
  let campaignId: number
  const now = Date.now()

  const config = (env: Record<string, string> = {}) => loadConfig({ PUBLIC_URL: 'https://lw.test', RATE_LIMIT_PER_MINUTE: '100000', KEY_CACHE_MS: '0', LOG_LEVEL: 'silent', LINK_CHECK: 'off', ...env })

  beforeAll(async () => {
    server = await startClickhouseServer()
    database = await createTestDatabase()
    made = servicesFor(database)
    owner = await createAccount(made)
    campaignId = await createCampaign(made, owner)
    const first = await createLink(made, owner)
    const second = await createLink(made, owner, { campaign: campaignId, tags: ['Promo'] })
    linkA = first
    qr = await createQrCode(made, owner)
    const targets: Target[] = [
      { accountId: owner.id, itemType: 'link', itemId: first.id, weight: 3 },
      { accountId: owner.id, itemType: 'link', itemId: second.id, weight: 2 },
      { accountId: owner.id, itemType: 'qr', itemId: qr.id, weight: 1 },
    ]
    const seeded = [
      ...spreadClicks(11, 600, now - 40 * DAY_MS, now, targets),
      // Around Europe/Berlin's DST change of 29 March 2026.
      ...spreadClicks(12, 100, Date.UTC(2026, 2, 28, 20), Date.UTC(2026, 2, 29, 4), targets),
      ...spreadClicks(13, 30, now - 50 * MINUTE_MS, now, targets),
    ]
    // Leads and sales of some of the clicks (issue 39): both apps read them from the main database.
    expect(await seedConversions(database.db, 14, owner.id, seeded)).toBeGreaterThan(10)
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, seeded))
    rawBuilt = await buildAppOn(database, config())
    const rawApp = rawBuilt
    fedApp = await buildAppOn(database, config({ ANALYTICS_STORE: `${server.url}linkwell` }))
    apps.push({ close: () => rawApp.app.close() }, { close: () => fedApp.app.close() })
    raw = apiClient(rawApp.app, owner.apiKey)
    fed = apiClient(fedApp.app, owner.apiKey)
  })

  afterAll(async () => {
    for (const app of apps) await app.close()
    await made?.services.close()
    await database?.destroy()
    await server?.stop()
  })

  it('answers every question as the raw clicks do', async () => {
    expect(fedApp.services.analyticsStore.engineName).toBe('clickhouse')
    const link = `/api/url/${linkA.id}/stats`
    const questions = [
      `${link}?from=${day(-30)}&to=${day(0)}`,
      `${link}?from=${day(-30)}&to=${day(0)}&country=US,Unknown&referrer=Direct,google.com`,
      `${link}?from=${day(-3)}&to=${day(0)}&granularity=hour&browser=Chrome`,
      `${link}?from=${day(-40)}&to=${day(0)}&granularity=week&tz=Asia/Kathmandu`,
      `${link}?from=2026-03-27&to=2026-03-30&granularity=hour&tz=Europe/Berlin`,
      `${link}?from=${day(-14)}&to=${day(0)}&compare=previous&device=mobile`,
      `/api/qr/${qr.id}/stats?from=${day(-30)}&to=${day(0)}&granularity=month`,
      `/api/stats?from=${day(-30)}&to=${day(0)}`,
      `/api/stats?from=${day(-30)}&to=${day(0)}&campaign=${campaignId}&country=DE`,
      `/api/stats?from=${day(-30)}&to=${day(0)}&tag=promo&granularity=hour&tz=America/St_Johns`,
      `/api/stats?from=${day(-14)}&to=${day(0)}&compare=previous`,
      // Conversions (issue 39): top links by them, the funnel, the top reports.
      `/api/stats?from=${day(-30)}&to=${day(0)}&topby=revenue`,
      `/api/stats?from=${day(-30)}&to=${day(0)}&topby=leads&country=US,DE&compare=previous`,
      `/api/conversions/funnel?from=${day(-30)}&to=${day(0)}`,
      `/api/conversions/funnel?from=${day(-30)}&to=${day(0)}&campaign=${campaignId}&granularity=week&tz=Asia/Kathmandu&compare=previous`,
      `/api/conversions/top?from=${day(-30)}&to=${day(0)}&by=link&sort=sales`,
      `/api/conversions/top?from=${day(-30)}&to=${day(0)}&by=tag&sort=clicks&browser=Chrome`,
      `/api/stats/live`,
      `/api/stats/live?country=US`,
      `${link}/live`,
      `${link}?from=${day(-30)}&to=${day(0)}&country=XX`,
      // Refused the same way by both (the query module checks before any engine is asked).
      `${link}?from=${day(0)}&to=${day(-3)}`,
      `${link}?granularity=minute`,
    ]
    let converted = 0
    for (const question of questions) {
      const [expected, received] = [await raw('GET', question), await fed('GET', question)]
      converted += Number(expected.data?.data?.leads ?? 0)
      expect(received.statusCode, question).toBe(expected.statusCode)
      expect(received.data, question).toEqual(expected.data)
    }
    // The questions saw conversions: their equality says something.
    expect(converted).toBeGreaterThan(0)
  })

  it('answers 503 in the envelope while ClickHouse is down; redirects and recording go on; the feeder catches up when it is back', async () => {
    const question = `/api/url/${linkA.id}/stats?from=${day(-1)}&to=${day(0)}&country=US,DE,FR,Unknown`
    const before = (await fed('GET', question)).data.data.clicks as number
    await server.stop({ keep: true })
    const refused = await fed('GET', question)
    expect(refused.statusCode).toBe(503)
    expect(refused.data).toEqual({ error: 1, code: 'service_unavailable', message: expect.stringMatching(/^Statistics are unavailable: the statistics store \(ClickHouse\) cannot be reached/) })
    expect((await fed('GET', '/api/stats/live')).statusCode).toBe(503)
    // Visitors are redirected and their clicks recorded meanwhile.
    const visits = 5
    for (let index = 0; index < visits; index += 1) {
      const visit = await fedApp.app.inject({ method: 'GET', url: `/${linkA.alias}`, headers: { host: 'lw.test', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'x-forwarded-for': `198.51.100.${index}` } })
      expect(visit.statusCode).toBe(302)
    }
    await fedApp.services.clicks.flush()
    await server.restart()
    const after = await fed('GET', `/api/url/${linkA.id}/stats?from=${day(-1)}&to=${day(0)}`)
    expect(after.statusCode).toBe(200)
    const expected = await raw('GET', `/api/url/${linkA.id}/stats?from=${day(-1)}&to=${day(0)}`)
    expect(after.data).toEqual(expected.data)
    expect((await fed('GET', question)).data.data.clicks).toBe(before + visits)
  })

  it('a ClickHouse that accepts connections and never answers: 503 "did not answer in time" within the query timeout', async () => {
    const sockets: net.Socket[] = []
    const silent = net.createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as net.AddressInfo).port
    const engines = createStatisticsEngines({
      db: database.db, rawClicks: createRawClickRepository(database.db), clicks: { afterCommit: () => () => undefined }, storeFile: null, retentionDays: null,
      clickhouse: { url: `http://127.0.0.1:${port}`, database: 'linkwell', username: 'default', password: '' },
      clickhouseOptions: { queryTimeoutMs: 500 }, onError: () => undefined,
    })
    try {
      // The silent server would hold the question for ever: only the query timeout ends it.
      const asked = engines.engine.figures({ itemType: 'link', itemId: linkA.id }, { start: now - DAY_MS, end: now }, {}, false)
      await expect(asked).rejects.toMatchObject({ code: 'service_unavailable', message: 'Statistics are unavailable: the statistics store (ClickHouse) did not answer in time. Please try again shortly.' })
    } finally {
      await engines.close()
      for (const socket of sockets) socket.destroy()
      silent.close()
    }
  })

  it('the admin\'s system page says which engine answers, and how far the feeder is', async () => {
    const admin = await createAccount(made, { isAdmin: true })
    const system = (client: ApiClient) => client('GET', '/api/admin/system')
    const rawAnswer = await system(apiClient(rawApp().app, admin.apiKey))
    expect(rawAnswer.statusCode).toBe(200)
    expect(rawAnswer.data).toEqual({ error: 0, data: { statistics: { engine: 'raw' } } })
    const fedAnswer = await system(apiClient(fedApp.app, admin.apiKey))
    const highest = Number((await database.db.selectFrom('clicks').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id)
    expect(fedAnswer.data).toEqual({ error: 0, data: { statistics: { engine: 'clickhouse', clickhouse: { database: 'linkwell', feed: { lastId: highest, gaps: 0, fedAt: expect.any(String), fedClicks: expect.any(Number), leased: true } } } } })
    // Not for a workspace's own key.
    expect((await fed('GET', '/api/admin/system')).statusCode).toBe(403)
  })

  it('a ClickHouse down when the server starts: the start goes on, questions answer 503, and once it is back the next question is answered and the feeder feeds', async () => {
    const fedFeeder = fedApp.services.analyticsStore.clickhouse!.feeder
    const proxy = await startTcpProxy('127.0.0.1', server.httpPort)
    await proxy.cut()
    const problems: string[] = []
    const engines = createStatisticsEngines({
      db: database.db, rawClicks: createRawClickRepository(database.db), clicks: { afterCommit: () => () => undefined }, storeFile: null, retentionDays: null,
      clickhouse: { url: `http://127.0.0.1:${proxy.port}`, database: 'linkwell', username: 'default', password: '' },
      clickhouseOptions: { queryTimeoutMs: 2_000, pollMs: 50 }, onError: (_error, problem) => problems.push(problem),
    })
    const question = () => engines.engine.figures({ itemType: 'link', itemId: linkA.id }, { start: now - 30 * DAY_MS, end: now }, { country: ['US'] }, false)
    try {
      // The served app's feeder stopped (its lease let go), this engine's feeder is the one that feeds.
      await fedFeeder.stop()
      // The start does not wait for ClickHouse; the feeder's rounds fail and say so.
      await engines.start()
      await expect.poll(() => problems.includes('feed')).toBe(true)
      await expect(question()).rejects.toMatchObject({ code: 'service_unavailable' })
      // Clicks recorded meanwhile are fed once it is back.
      await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, spreadClicks(14, 20, now - 2 * DAY_MS, now - DAY_MS, [{ accountId: owner.id, itemType: 'link', itemId: linkA.id, weight: 1 }])))
      await proxy.restore()
      // Asked again by the next question (not remembered as down) …
      const answered = await question()
      const expected = await createStatisticsEngines({
        db: database.db, rawClicks: createRawClickRepository(database.db), clicks: { afterCommit: () => () => undefined }, storeFile: null, retentionDays: null, onError: () => undefined,
      }).engine.figures({ itemType: 'link', itemId: linkA.id }, { start: now - 30 * DAY_MS, end: now }, { country: ['US'] }, false)
      // Engines hand their slots in no set order (the service orders them).
      const bySlot = (figures: typeof answered) => ({ ...figures, slots: [...figures.slots].sort((a, b) => a.start - b.start) })
      expect(bySlot(answered)).toEqual(bySlot(expected))
      // … and the feeder started then feeds.
      const highest = Number((await database.db.selectFrom('clicks').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id)
      await expect.poll(async () => (await engines.clickhouse!.feeder.state()).lastId).toBe(highest)
      expect((await engines.clickhouse!.feeder.state()).holder).toBe(engines.clickhouse!.feeder.id)
    } finally {
      await engines.close()
      await proxy.close()
      fedFeeder.start()
    }
  })

  function day(offset: number): string {
    return new Date(now + offset * DAY_MS).toJSON().slice(0, 10)
  }
})
