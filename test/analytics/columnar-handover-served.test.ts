// The hand-over as served (services.ts, ANALYTICS_STORE; ADR 022): visits recorded through the
// services' click recorder (`services.clicks`, the redirect's path) reach the columnar store as the
// writer committed them (the recorder's `afterCommit` → `store.offer`), so the store's catch-up reads none of them
// back from the main database's `clicks`; clicks recorded before the store opened are read back (the
// counter sees the store's reads). The store's answers then equal the raw-click engine's.
// The store's reads are counted by a Kysely plugin on the database handle given to createServices,
// as columnar-store.test.ts counts them on a store it opens itself.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DAY_MS, MINUTE_MS } from '../../src/core/time.js'
import { createClickQuery, type ClickScope, type UtcWindow, type WindowFigures } from '../../src/modules/statistics/click-query.js'
import type { ClickFilters } from '../../src/modules/statistics/click-query-params.js'
import { createColumnarEngine } from '../../src/modules/statistics/columnar-query.js'
import { createAccount, createLink, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'
import { countingReadsOf } from '../helpers/table-reads.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'
import { BROWSERS, createRandom, LANGUAGES, pick, REFERRERS, VISITOR_IPS } from './click-test-support.js'

const HOUR_MS = 3_600_000

/** Figures as compared: slots by start (they come in any order). */
function normalized(figures: WindowFigures): WindowFigures {
  return { ...figures, slots: [...figures.slots].sort((a, b) => a.start - b.start) }
}

describe('the served columnar store takes the click recorder\'s batches as they are', () => {
  let database: TestDatabase
  let made: WithServices
  let owner: TestAccount
  let links: Array<{ id: number }>
  let dir: string
  // Rows read from `clicks` through the services' database (a plugin sees every query and its answer).
  const clickReads = countingReadsOf('clicks')
  const now = Date.now()
  const random = createRandom(22)

  /** Records `count` visits of the owner's links through the services, minutes apart, and waits until they are written. */
  async function recordVisits(count: number): Promise<void> {
    for (let index = 0; index < count; index += 1) {
      const [referrer] = pick(random, REFERRERS)
      const [acceptLanguage] = pick(random, LANGUAGES)
      const queued = made.services.clicks.record({
        accountId: owner.id, itemType: 'link', itemId: pick(random, links).id, at: new Date(now - index * 7 * MINUTE_MS),
        ip: pick(random, VISITOR_IPS), userAgent: pick(random, Object.values(BROWSERS)), referrer, acceptLanguage,
      })
      expect(queued).toBe(true)
    }
    await made.services.clicks.flush()
  }

  async function highestClickId(): Promise<number> {
    const row = await database.db.selectFrom('clicks').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()
    return Number(row.id)
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'columnar-handover-'))
    // The services' catch-up every second (and the recorder's timed drains) held still: a catch-up
    // between a batch's commit and its hand-over would rightly read it back; here the test's own
    // catch-up is the one that meets the batches.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    made = servicesFor({ ...database, db: database.db.withPlugin(clickReads.plugin) }, { ANALYTICS_STORE: path.join(dir, 'analytics.duckdb') })
    owner = await createAccount(made)
    links = [await createLink(made, owner), await createLink(made, owner)]
  })
  afterAll(async () => {
    await made?.services.close()
    vi.useRealTimers()
    await database?.destroy()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('reads back only the clicks recorded before it opened, and answers as the raw clicks', async () => {
    await recordVisits(25)
    clickReads.reset()
    await made.services.analyticsStore.start()
    const store = made.services.analyticsStore.store!
    // Queued behind the start's first catch-up: the clicks recorded so far are read back.
    expect(await store.catchUp()).toBe(0)
    expect(clickReads.rows).toBeGreaterThanOrEqual(25)
    expect(store.position().lastId).toBe(await highestClickId())

    // Two batches recorded as a redirect does: handed over, appended, none read back.
    await recordVisits(40)
    await recordVisits(35)
    clickReads.reset()
    expect(await store.catchUp()).toBe(75)
    expect(clickReads.rows).toBe(0)
    expect(store.position().lastId).toBe(await highestClickId())

    const sqlEngine = createClickQuery(database.db)
    const columnar = createColumnarEngine(database.db, store)
    const today = Math.floor(now / DAY_MS) * DAY_MS
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS
    const windows: Array<[UtcWindow, boolean]> = [[{ start: today - DAY_MS, end: today + DAY_MS }, false], [{ start: hour - 6 * HOUR_MS, end: hour + HOUR_MS }, true]]
    const scopes: ClickScope[] = [{ itemType: 'link', itemId: links[0]!.id }, { itemType: 'link', itemId: links[1]!.id }, { accountId: owner.id }]
    const filters: ClickFilters[] = [{}, { country: ['US'] }, { browser: ['Chrome', 'Mobile Safari'], language: ['de', ''] }]
    for (const scope of scopes) {
      for (const [window, quarters] of windows) {
        for (const filter of filters) {
          const expected = normalized(await sqlEngine.figures(scope, window, filter, quarters))
          expect(normalized(await columnar.figures(scope, window, filter, quarters)), JSON.stringify({ scope, window, filter })).toEqual(expected)
        }
      }
    }
    const total = await sqlEngine.figures({ accountId: owner.id }, windows[0]![0], {}, false)
    expect(total.slots.reduce((sum, slot) => sum + Number(slot.clicks), 0)).toBe(100)
  })
})
