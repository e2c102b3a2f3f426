// The columnar store as the served process keeps it (services.analyticsStore, ANALYTICS_STORE): it
// opens, catches up with the clicks already recorded without holding the start up, then the
// statistics service answers from it; the services' close closes it with nothing lost.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { writeEnrichedClicks, type EnrichedClick } from '../../src/analytics/click-writer.js'
import { openColumnarStore } from '../../src/analytics/columnar-store.js'
import { nowTimestamp } from '../../src/core/time.js'
import { createAccount, createCampaign, createLink, createQrCode, servicesFor } from '../helpers/factories.js'
import { loadConfig } from '../../src/config.js'
import { DAY_MS } from '../../src/core/time.js'
import { apiClient, buildAppOn } from '../helpers/test-app.js'
import { seedConversions, spreadClicks, type Target } from './engine-parity-support.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'

describe('the served columnar store', () => {
  let database: TestDatabase
  let dir: string

  beforeAll(async () => {
    database = await createTestDatabase()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'columnar-served-'))
  })
  afterAll(async () => {
    await database.destroy()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('answers filtered statistics from the store once it has caught up, and closes with the services', async () => {
    const file = path.join(dir, 'analytics.duckdb')
    const made = servicesFor(database, { ANALYTICS_STORE: file })
    const owner = await createAccount(made)
    const link = await createLink(made, owner)
    const click = (country: string | null, index: number): EnrichedClick => ({
      accountId: owner.id, itemType: 'link', itemId: link.id, createdAt: nowTimestamp(new Date(Date.now() - index * 60_000)),
      referrerHost: index % 2 === 0 ? 'twitter.com' : null, language: 'de', visitorHash: `visitor-${index}`, country,
      agent: { browser: 'Firefox', os: 'Linux', device: 'desktop' }, isUnique: index % 3 === 0,
    })
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, Array.from({ length: 30 }, (_, index) => click(index < 12 ? 'DE' : 'FR', index))))

    expect(made.services.analyticsStore.answering).toBe(false)
    await made.services.analyticsStore.start()
    await vi.waitFor(() => expect(made.services.analyticsStore.answering).toBe(true), { timeout: 10_000 })
    expect(made.services.analyticsStore.store!.position().lastId).toBeGreaterThan(0)

    // A click recorded after the start counts too: the store catches up before it answers.
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, [click('DE', 0)]))
    const answer = await made.services.statistics.betweenOrThrow(owner.id, { itemType: 'link', itemId: link.id }, { country: 'DE' })
    expect(answer.clicks).toBe(13)
    expect(answer).toMatchObject({ topCountries: { Germany: '13' }, topReferrers: { 'twitter.com': '7' } })

    await made.services.close()
    expect(made.services.analyticsStore.store).toBeNull()
    expect(made.services.analyticsStore.answering).toBe(false)
    // The file holds every click: reopened, there is nothing to read.
    const reopened = await openColumnarStore(database.db, { file })
    expect(await reopened.catchUp()).toBe(0)
    await reopened.close()
  })

  it('answers the statistics and conversion routes exactly as the raw clicks do, with leads and sales from the main database', async () => {
    const made = servicesFor(database)
    const owner = await createAccount(made)
    const campaign = await createCampaign(made, owner)
    const first = await createLink(made, owner)
    const second = await createLink(made, owner, { campaign, tags: ['Promo'] })
    const qr = await createQrCode(made, owner)
    const targets: Target[] = [
      { accountId: owner.id, itemType: 'link', itemId: first.id, weight: 3 },
      { accountId: owner.id, itemType: 'link', itemId: second.id, weight: 2 },
      { accountId: owner.id, itemType: 'qr', itemId: qr.id, weight: 1 },
    ]
    const now = Date.now()
    const clicks = spreadClicks(21, 500, now - 35 * DAY_MS, now, targets)
    expect(await seedConversions(database.db, 22, owner.id, clicks)).toBeGreaterThan(10)
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, clicks))
    const config = (env: Record<string, string> = {}) => loadConfig({ PUBLIC_URL: 'https://lw.test', RATE_LIMIT_PER_MINUTE: '100000', KEY_CACHE_MS: '0', LOG_LEVEL: 'silent', LINK_CHECK: 'off', ...env })
    const rawBuilt = await buildAppOn(database, config())
    const storeBuilt = await buildAppOn(database, config({ ANALYTICS_STORE: path.join(dir, 'parity.duckdb') }))
    try {
      await storeBuilt.services.analyticsStore.start()
      const { last } = await database.db.selectFrom('clicks').select((eb) => eb.fn.max('id').as('last')).executeTakeFirstOrThrow()
      await vi.waitFor(() => {
        expect(storeBuilt.services.analyticsStore.engineName).toBe('duckdb')
        expect(storeBuilt.services.analyticsStore.store!.position().lastId).toBeGreaterThanOrEqual(Number(last))
      }, { timeout: 30_000 })
      const [raw, stored] = [apiClient(rawBuilt.app, owner.apiKey), apiClient(storeBuilt.app, owner.apiKey)]
      const day = (offset: number) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10)
      const range = `from=${day(-30)}&to=${day(0)}`
      const questions = [
        `/api/stats?${range}&tz=UTC`,
        `/api/stats?${range}&topby=revenue&country=US,DE,Unknown`,
        `/api/stats?from=${day(-10)}&to=${day(0)}&compare=previous&granularity=hour&tz=Europe/Berlin`,
        `/api/stats?${range}&tag=promo&granularity=week&tz=Asia/Kathmandu`,
        `/api/url/${first.id}/stats?${range}&browser=Chrome&compare=previous`,
        `/api/qr/${qr.id}/stats?${range}&granularity=month`,
        `/api/conversions/funnel?${range}&campaign=${campaign}&compare=previous`,
        `/api/conversions/funnel?${range}&referrer=Direct`,
        `/api/conversions/top?${range}&by=campaign&sort=leads`,
        `/api/conversions/top?${range}&by=link&sort=revenue&device=Mobile,Desktop`,
      ]
      let leads = 0
      for (const question of questions) {
        const [expected, received] = [await raw('GET', question), await stored('GET', question)]
        expect(expected.statusCode, question).toBe(200)
        // The whole answer, the dimensions' top lists included (a workspace's unfiltered values were
        // read from the rollups' first days only when the window's whole weeks reached its end).
        expect(received.data.data, question).toEqual(expected.data.data)
        leads += Number(expected.data.data.leads ?? 0)
      }
      expect(leads).toBeGreaterThan(0)
    } finally {
      await storeBuilt.app.close()
      await rawBuilt.app.close()
      await made.services.close()
    }
  })
})
