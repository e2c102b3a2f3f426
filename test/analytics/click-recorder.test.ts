import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClickRecorder, type ClickRecorderOptions } from '../../src/analytics/click-recorder.js'
import { pruneRawClicks, pruneVisitorDays } from '../../src/analytics/click-retention.js'
import { createDailySaltHasher, SALT_KEY_PREFIX, type VisitorHasher } from '../../src/analytics/visitor-hash.js'
import { fixedSecretHasher } from '../helpers/visitor-hasher.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'

describe('click recorder', () => {
  let database: TestDatabase
  let accountId: number
  let linkId: number

  beforeAll(async () => {
    database = await createTestDatabase()
    const db = database.db
    const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
    accountId = (await db.insertInto('accounts').values({ email: 'c@example.com', username: 'clicker', password_hash: null, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()).id
    linkId = (await db.insertInto('links').values({ account_id: accountId, domain_id: null, host: '', alias: 'recorded', url: 'https://example.com', title: null, description: null, password_hash: null, expires_at: null, type: 'direct', splash_id: null, overlay_id: null, campaign_id: null, targeting: '{}', clicks: 0, unique_clicks: 0, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()).id
  })
  afterAll(() => database.destroy())

  async function recorder(options: { batchSize?: number; maxQueue?: number } = {}) {
    return createClickRecorder({ db: database.db, visitors: fixedSecretHasher(), intervalMs: 60_000, ...options })
  }

  const visit = (overrides: Record<string, unknown> = {}) => ({
    accountId,
    itemType: 'link' as const,
    itemId: linkId,
    ip: '203.0.113.9',
    userAgent: BROWSER,
    referrer: 'https://www.Facebook.com/some/post',
    acceptLanguage: 'fr-CH, fr;q=0.9, en;q=0.8',
    ...overrides,
  })

  it('writes visits in a batch, keeps the link counter in step, and drops bots', async () => {
    const clicks = await recorder()
    const before = await database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    for (let i = 0; i < 7; i += 1) clicks.record(visit())
    clicks.record(visit({ userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' }))
    clicks.record(visit({ userAgent: 'facebookexternalhit/1.1' }))
    expect(clicks.pending).toBe(7)
    await clicks.close()
    expect(clicks.pending).toBe(0)
    const after = await database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n) - Number(before.n)).toBe(7)
    const link = await database.db.selectFrom('links').select('clicks').where('id', '=', linkId).executeTakeFirstOrThrow()
    expect(link.clicks).toBe(7)
    const row = await database.db.selectFrom('clicks').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(row).toMatchObject({ item_type: 'link', item_id: linkId, referrer_host: 'facebook.com', language: 'fr', account_id: accountId })
    expect(row.visitor_hash).toMatch(/^[\w-]{32}$/)
    expect(JSON.stringify(row)).not.toContain('203.0.113.9')
  })

  it('says which visits it counts, and tells listeners each link\'s counter after a written batch (click caps)', async () => {
    const clicks = await recorder()
    const told: Array<Array<[number, { clicks: number; added: number }]>> = []
    clicks.afterCommit(({ linkCounters }) => told.push([...linkCounters]))
    const before = Number((await database.db.selectFrom('links').select('clicks').where('id', '=', linkId).executeTakeFirstOrThrow()).clicks)
    expect(clicks.counts(visit())).toBe(true)
    expect(clicks.counts(visit({ userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' }))).toBe(false)
    expect(clicks.counts(visit({ prefetch: true }))).toBe(false)
    expect(clicks.counts(visit({ userAgent: undefined }))).toBe(false)
    expect(clicks.record(visit())).toBe(true)
    expect(clicks.record(visit())).toBe(true)
    expect(clicks.record(visit({ userAgent: 'facebookexternalhit/1.1' }))).toBe(false)
    // Other items' counters are not links'.
    clicks.record(visit({ itemType: 'qr', itemId: 424242 }))
    await clicks.close()
    expect(told).toEqual([[[linkId, { clicks: before + 2, added: 2 }]]])
  })

  it('answers false for a visit the full queue drops', async () => {
    const clicks = await recorder({ maxQueue: 1 })
    expect(clicks.record(visit())).toBe(true)
    expect(clicks.record(visit())).toBe(false)
    await clicks.close()
  })

  it('gives one visitor the same hash within a day on every instance, another one the next day, and forgets old salts', async () => {
    // Two instances: each reads (or draws) the day's random salt from the shared database.
    const first = createDailySaltHasher(database.db)
    const second = createDailySaltHasher(database.db)
    await Promise.all([first.prepare(['2026-11-20', '2026-11-21', '2026-11-22']), second.prepare(['2026-11-22', '2026-11-21'])])
    const hash = (hasher: VisitorHasher, ip: string, day: string) => hasher.hash(ip, BROWSER, day)
    expect(hash(first, '198.51.100.1', '2026-11-21')).toBe(hash(second, '198.51.100.1', '2026-11-21'))
    expect(hash(first, '198.51.100.1', '2026-11-21')).toMatch(/^[\w-]{32}$/)
    expect(hash(first, '198.51.100.1', '2026-11-22')).not.toBe(hash(first, '198.51.100.1', '2026-11-21'))
    expect(hash(first, '198.51.100.2', '2026-11-21')).not.toBe(hash(first, '198.51.100.1', '2026-11-21'))
    expect(() => second.hash('198.51.100.1', BROWSER, '2026-11-19')).toThrow(/not prepared/)
    // A batch spanning many days gets every one of its salts, however many the hasher held before.
    const days = Array.from({ length: 12 }, (_, index) => `2026-10-${String(index + 1).padStart(2, '0')}`)
    await second.prepare(days)
    for (const day of days) expect(second.hash('198.51.100.1', BROWSER, day)).toMatch(/^[\w-]{32}$/)
    await database.db.deleteFrom('settings').where('key', 'like', `${SALT_KEY_PREFIX}2026-10-%`).execute()
    const salts = async () => (await database.db.selectFrom('settings').select('key').where('key', 'like', `${SALT_KEY_PREFIX}%`).orderBy('key').execute()).map((row) => row.key)
    expect(await salts()).toEqual(['2026-11-20', '2026-11-21', '2026-11-22'].map((day) => `${SALT_KEY_PREFIX}${day}`))
    // Pruning raw clicks leaves every salt; days before yesterday lose theirs with their visitor rows.
    await pruneRawClicks(database.db, '2026-11-21 12:00:00')
    expect(await salts()).toEqual(['2026-11-20', '2026-11-21', '2026-11-22'].map((day) => `${SALT_KEY_PREFIX}${day}`))
    await pruneVisitorDays(database.db, '2026-11-22')
    expect(await salts()).toEqual(['2026-11-21', '2026-11-22'].map((day) => `${SALT_KEY_PREFIX}${day}`))
  })

  it('bounds the queue: beyond maxQueue, visits are dropped instead of growing memory', async () => {
    const dropped: number[] = []
    const clicks = createClickRecorder({ db: database.db, visitors: { prepare: async () => {}, hash: () => 'h' }, intervalMs: 60_000, batchSize: 1000, maxQueue: 5, onDrop: (n) => dropped.push(n) })
    for (let i = 0; i < 8; i += 1) clicks.record(visit())
    expect(clicks.pending).toBe(5)
    await clicks.close()
    expect(dropped).toEqual([3])
  })

  it('loses nothing queued when closed in the middle of a load', async () => {
    const clicks = await recorder({ batchSize: 50 })
    const start = await database.db.selectFrom('links').select('clicks').where('id', '=', linkId).executeTakeFirstOrThrow()
    for (let i = 0; i < 1234; i += 1) clicks.record(visit())
    await clicks.close()
    const end = await database.db.selectFrom('links').select('clicks').where('id', '=', linkId).executeTakeFirstOrThrow()
    expect(end.clicks - start.clicks).toBe(1234)
  })

  describe('when the database refuses batches', () => {
    const breakClicksTable = () => sql`alter table clicks rename to clicks_away`.execute(database.db)
    const restoreClicksTable = () => sql`alter table clicks_away rename to clicks`.execute(database.db)
    const linkClicks = async () => (await database.db.selectFrom('links').select('clicks').where('id', '=', linkId).executeTakeFirstOrThrow()).clicks

    async function failingRecorder(options: Partial<ClickRecorderOptions> = {}) {
      const events = { errors: 0, dropped: [] as number[], lost: [] as number[] }
      const clicks = createClickRecorder({ db: database.db, 
        visitors: fixedSecretHasher(),
        intervalMs: 60_000,
        batchSize: 10,
        onError: () => (events.errors += 1),
        onDrop: (count) => events.dropped.push(count),
        onShutdownLoss: (count) => events.lost.push(count),
        ...options,
      })
      return { clicks, events }
    }

    it('backs off instead of retrying on every visit, and writes everything once the database is back', async () => {
      const before = await linkClicks()
      const { clicks, events } = await failingRecorder()
      await breakClicksTable()
      try {
        for (let i = 0; i < 10; i += 1) clicks.record(visit())
        await clicks.flush()
        expect(events.errors).toBe(1)
        // Each of these fills a batch again; within the back-off none of them starts a write.
        for (let i = 0; i < 200; i += 1) clicks.record(visit())
        await new Promise((resolve) => setImmediate(resolve))
        expect(events.errors).toBe(1)
        expect(clicks.pending).toBe(210)
      } finally {
        await restoreClicksTable()
      }
      await clicks.close()
      expect(await linkClicks()).toBe(before + 210)
      expect(events.dropped).toEqual([])
    })

    it('keeps retrying at shutdown while the database comes back, losing nothing', async () => {
      const before = await linkClicks()
      const { clicks, events } = await failingRecorder({ closeTimeoutMs: 10_000 })
      await breakClicksTable()
      for (let i = 0; i < 25; i += 1) clicks.record(visit())
      const restored = new Promise((resolve) => setTimeout(resolve, 400)).then(restoreClicksTable)
      await clicks.close()
      await restored
      expect(await linkClicks()).toBe(before + 25)
      expect(events.lost).toEqual([])
      expect(events.errors).toBeGreaterThan(0)
    })

    it('gives up at shutdown after closeTimeoutMs and says how many visits are lost', async () => {
      // Shorter than two back-offs, so the batch is not refused the three times that drop it.
      const { clicks, events } = await failingRecorder({ closeTimeoutMs: 200 })
      await breakClicksTable()
      try {
        for (let i = 0; i < 7; i += 1) clicks.record(visit())
        await clicks.close()
      } finally {
        await restoreClicksTable()
      }
      expect(events.lost).toEqual([7])
      expect(clicks.pending).toBe(0)
    })

    it('drops a batch the database refused three times for a reason other than being unreachable', async () => {
      const before = await linkClicks()
      const { clicks, events } = await failingRecorder()
      await breakClicksTable()
      try {
        for (let i = 0; i < 4; i += 1) clicks.record(visit())
        await clicks.flush()
        await clicks.flush()
        expect(events.dropped).toEqual([])
        expect(clicks.pending).toBe(4)
        await clicks.flush()
        expect(events.dropped).toEqual([4])
        expect(clicks.pending).toBe(0)
      } finally {
        await restoreClicksTable()
      }
      clicks.record(visit())
      await clicks.close()
      expect(await linkClicks()).toBe(before + 1)
    })
  })
})
