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
import { createAccount, createLink, servicesFor } from '../helpers/factories.js'
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
})
