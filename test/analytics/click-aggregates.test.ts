// The click writer against a real database: the aggregates stay a recount of the raw clicks
// under a random load, daily-unique visitors are exact (also with two instances writing at
// once), enrichment lands in the rows, a refused batch is kept whole, old visitor rows go.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClickRecorder, type ClickRecorderOptions } from '../../src/analytics/click-recorder.js'
import { fixedSecretHasher } from '../helpers/visitor-hasher.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'
import type { ClickEvent, ClickItemType } from '../../src/analytics/click-items.js'
import { nowTimestamp } from '../../src/core/time.js'
import {
  AGENT_DESCRIPTIONS, BOT_AGENTS, BROWSERS, LANGUAGES, REFERRERS, VISITOR_IPS, createRandom, expectAggregatesMatchRaw,
  expectedCountryOf, pick, readRawClicks,
} from './click-test-support.js'
import { createAccount, createBioPage, createCampaign, createLink, createQrCode, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'

describe('click aggregates', () => {
  let database: TestDatabase
  let db: TestDatabase['db']
  let accountId: number
  let made: WithServices
  let owner: TestAccount

  beforeAll(async () => {
    database = await createTestDatabase()
    db = database.db
    made = servicesFor(database)
    owner = await createAccount(made)
    accountId = owner.id
  })
  afterAll(() => database.destroy())

  /** A recorder as an instance builds one: its own hasher over the shared secret; no timer flushes. */
  async function startRecorder(options: Partial<ClickRecorderOptions> = {}) {
    const errors: unknown[] = []
    const recorder = createClickRecorder({
      db,
      visitors: fixedSecretHasher(),
      batchSize: 1_000,
      intervalMs: 60_000,
      onError: (error) => errors.push(error),
      ...options,
    })
    return { recorder, errors }
  }

  const visit = (itemId: number, overrides: Partial<ClickEvent> = {}): ClickEvent => ({
    accountId, itemType: 'link', itemId, ip: '10.1.2.3', userAgent: BROWSERS.chromeWindows, referrer: undefined, acceptLanguage: 'en', ...overrides,
  })

  /** One dimension's counters of an item: per day from click_days, and the all-time total. */
  async function countersOf(itemType: ClickItemType, itemId: number, dimension: string) {
    const days = await db.selectFrom('click_days').select(['day', 'value', 'clicks']).where('item_type', '=', itemType).where('item_id', '=', itemId).where('dimension', '=', dimension).orderBy('day').orderBy('value').execute()
    const totals = await db.selectFrom('click_totals').select(['value', 'clicks']).where('item_type', '=', itemType).where('item_id', '=', itemId).where('dimension', '=', dimension).orderBy('value').execute()
    return {
      days: Object.fromEntries(days.map((row) => [row.value ? `${row.day} ${row.value}` : row.day, row.clicks])),
      totals: Object.fromEntries(totals.map((row) => [row.value, row.clicks])),
    }
  }

  async function rawClicksOf(itemId: number, itemType: ClickItemType = 'link') {
    return (await readRawClicks(db)).filter((row) => row.item_type === itemType && row.item_id === itemId)
  }

  it('keeps click_days, click_totals and the item counters equal to a recount of a random load', async () => {
    const items: { itemType: ClickItemType; itemId: number }[] = [
      { itemType: 'link', itemId: (await createLink(made, owner, { custom: 'load-a' })).id },
      { itemType: 'link', itemId: (await createLink(made, owner, { custom: 'load-b' })).id },
      { itemType: 'link', itemId: (await createLink(made, owner, { custom: 'load-c' })).id },
      { itemType: 'qr', itemId: (await createQrCode(made, owner, { name: 'load-qr-a' })).id },
      { itemType: 'qr', itemId: (await createQrCode(made, owner, { name: 'load-qr-b' })).id },
      { itemType: 'campaign', itemId: await createCampaign(made, owner, { name: 'load-campaign', slug: 'load-campaign', public: true }) },
      { itemType: 'bio', itemId: (await createBioPage(made, owner, { alias: 'load-bio' })).id },
    ]
    const random = createRandom(20_260_310)
    const agents = Object.values(BROWSERS)
    const events: { event: ClickEvent; counted: boolean; referrerHost: string | null; language: string | null }[] = []
    for (let i = 0; i < 3_000; i += 1) {
      const ipIndex = Math.floor(random() * VISITOR_IPS.length)
      // A visitor mostly keeps its browser, so the same visitor returns within a day.
      const browser = random() < 0.8 ? agents[ipIndex % agents.length]! : pick(random, agents)
      const at = new Date(Date.UTC(2026, 2, 10 + Math.floor(random() * 4)) + Math.floor(random() * 86_400) * 1_000)
      const [referrer, referrerHost] = pick(random, REFERRERS)
      const [acceptLanguage, language] = pick(random, LANGUAGES)
      const kind = random()
      const event: ClickEvent = {
        accountId, ...pick(random, items), ip: VISITOR_IPS[ipIndex]!, referrer, acceptLanguage, at,
        userAgent: kind < 0.06 ? pick(random, BOT_AGENTS) : browser,
        prefetch: kind >= 0.06 && kind < 0.09,
      }
      events.push({ event, counted: kind >= 0.09, referrerHost, language })
    }
    // Visits arrive in time order: a visitor's first click of a day is its earliest.
    events.sort((a, b) => a.event.at!.getTime() - b.event.at!.getTime())

    const { recorder, errors } = await startRecorder({ batchSize: 37 })
    for (const { event } of events) {
      recorder.record(event)
      // Flushing at random points moves the batch boundaries all over the load.
      if (random() < 0.02) await recorder.flush()
    }
    await recorder.close()
    expect(errors).toEqual([])
    expect(recorder.pending).toBe(0)

    const hash = fixedSecretHasher()
    const seen = new Set<string>()
    const expected = events.filter((entry) => entry.counted).map(({ event, referrerHost, language }) => {
      const day = nowTimestamp(event.at).slice(0, 10)
      const visitorHash = hash.hash(event.ip, event.userAgent!, day)
      const visitorKey = `${day}|${event.itemType}|${event.itemId}|${visitorHash}`
      const isUnique = seen.has(visitorKey) ? 0 : 1
      seen.add(visitorKey)
      return {
        item_type: event.itemType, item_id: event.itemId, created_at: nowTimestamp(event.at), referrer_host: referrerHost, language,
        visitor_hash: visitorHash, country: expectedCountryOf(event.ip), ...AGENT_DESCRIPTIONS[event.userAgent!], is_unique: isUnique,
      }
    })
    const itemKeys = new Set(items.map((item) => `${item.itemType}|${item.itemId}`))
    const rows = (await readRawClicks(db)).filter((row) => itemKeys.has(`${row.item_type}|${row.item_id}`))
    // One raw row per counted visit, in the order recorded; bots and previews left none.
    expect(rows.length).toBe(expected.length)
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual(expected)
    // The load really mixes what it claims to: repeat visitors, countries, every network.
    expect(seen.size).toBeLessThan(expected.length)
    expect(new Set(rows.map((row) => row.country))).toEqual(new Set(['US', 'GB', 'DE', null]))
    expect((await countersOf('link', items[0]!.itemId, 'social')).totals).toEqual({
      facebook: expect.any(Number), twitter: expect.any(Number), instagram: expect.any(Number), linkedin: expect.any(Number),
    })

    await expectAggregatesMatchRaw(db)
  })

  it('counts a visitor once per link and UTC day, within a batch and across batches', async () => {
    const linkA = (await createLink(made, owner, { custom: 'unique-a' })).id
    const linkB = (await createLink(made, owner, { custom: 'unique-b' })).id
    const { recorder, errors } = await startRecorder()
    const firefox = { userAgent: BROWSERS.firefoxLinux }
    const at = (time: string) => ({ at: new Date(time) })

    for (let i = 0; i < 5; i += 1) recorder.record(visit(linkA, at(`2026-04-01T09:00:0${i}Z`)))
    recorder.record(visit(linkA, { ...at('2026-04-01T09:10:00Z'), ...firefox }))
    recorder.record(visit(linkB, at('2026-04-01T09:20:00Z')))
    await recorder.flush()
    recorder.record(visit(linkA, at('2026-04-01T18:00:00Z')))
    recorder.record(visit(linkA, { ...at('2026-04-01T18:01:00Z'), ...firefox }))
    recorder.record(visit(linkA, at('2026-04-01T23:59:59Z')))
    recorder.record(visit(linkB, at('2026-04-01T23:59:59Z')))
    await recorder.flush()
    for (let i = 0; i < 3; i += 1) recorder.record(visit(linkA, at(`2026-04-02T00:00:0${i}Z`)))
    await recorder.close()
    expect(errors).toEqual([])

    const rowsA = await rawClicksOf(linkA)
    expect(rowsA.map((row) => row.is_unique)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0])
    const hashes = rowsA.map((row) => row.visitor_hash)
    // Chrome on day one, Firefox on day one, Chrome on day two: three visitors, three hashes.
    expect(new Set([hashes[0], hashes[1], hashes[2], hashes[3], hashes[4], hashes[6], hashes[8]])).toEqual(new Set([hashes[0]]))
    expect(new Set([hashes[5], hashes[7]])).toEqual(new Set([hashes[5]]))
    expect(new Set([hashes[9], hashes[10], hashes[11]])).toEqual(new Set([hashes[9]]))
    expect(new Set([hashes[0], hashes[5], hashes[9]]).size).toBe(3)
    expect((await rawClicksOf(linkB)).map((row) => row.is_unique)).toEqual([1, 0])

    expect(await countersOf('link', linkA, 'unique')).toEqual({ days: { '2026-04-01': 2, '2026-04-02': 1 }, totals: { '': 3 } })
    expect(await countersOf('link', linkA, 'clicks')).toEqual({ days: { '2026-04-01': 9, '2026-04-02': 3 }, totals: { '': 12 } })
    expect(await countersOf('link', linkB, 'unique')).toEqual({ days: { '2026-04-01': 1 }, totals: { '': 1 } })
    expect(await countersOf('link', linkB, 'clicks')).toEqual({ days: { '2026-04-01': 2 }, totals: { '': 2 } })
    const links = await db.selectFrom('links').select(['id', 'clicks', 'unique_clicks']).where('id', 'in', [linkA, linkB]).orderBy('id').execute()
    expect(links).toEqual([{ id: linkA, clicks: 12, unique_clicks: 3 }, { id: linkB, clicks: 2, unique_clicks: 1 }])
    await expectAggregatesMatchRaw(db)
  })

  it('stays exact when two instances write the same visitors of one link at once', async () => {
    const linkId = (await createLink(made, owner, { custom: 'two-instances' })).id
    const first = await startRecorder({ batchSize: 7 })
    const second = await startRecorder({ batchSize: 7 })
    const agents = Object.values(BROWSERS)
    const visitors = Array.from({ length: 24 }, (_, i) => ({ ip: `10.9.0.${i + 1}`, userAgent: agents[i % agents.length]! }))
    const days = ['2026-05-01', '2026-05-02']
    const random = createRandom(7)
    for (let round = 0; round < 3; round += 1) {
      for (const recorder of [first.recorder, second.recorder]) {
        const visits = days.flatMap((day) => visitors.map((visitor, i) => visit(linkId, { ...visitor, at: new Date(`${day}T10:00:${String(i).padStart(2, '0')}Z`) })))
        // Each instance sees the visits in its own order.
        visits.sort(() => random() - 0.5)
        for (const event of visits) recorder.record(event)
      }
    }
    await Promise.all([first.recorder.close(), second.recorder.close()])
    expect([...first.errors, ...second.errors]).toEqual([])

    expect(await countersOf('link', linkId, 'unique')).toEqual({ days: { '2026-05-01': 24, '2026-05-02': 24 }, totals: { '': 48 } })
    expect(await countersOf('link', linkId, 'clicks')).toEqual({ days: { '2026-05-01': 144, '2026-05-02': 144 }, totals: { '': 288 } })
    const rows = await rawClicksOf(linkId)
    expect(rows).toHaveLength(288)
    const uniquePerVisitorDay = new Map<string, number>()
    for (const row of rows) {
      const key = `${row.created_at.slice(0, 10)} ${row.visitor_hash}`
      uniquePerVisitorDay.set(key, (uniquePerVisitorDay.get(key) ?? 0) + row.is_unique)
    }
    expect(uniquePerVisitorDay.size).toBe(48)
    expect(new Set(uniquePerVisitorDay.values())).toEqual(new Set([1]))
    const link = await db.selectFrom('links').select(['clicks', 'unique_clicks']).where('id', '=', linkId).executeTakeFirstOrThrow()
    expect(link).toEqual({ clicks: 288, unique_clicks: 48 })
    await expectAggregatesMatchRaw(db)
  })

  it('stores country, browser, OS, device and referrer, counts the social network, never the IP', async () => {
    const linkId = (await createLink(made, owner, { custom: 'enriched' })).id
    const { recorder, errors } = await startRecorder()
    recorder.record(visit(linkId, { ip: '8.8.8.8', userAgent: BROWSERS.safariIphone, referrer: 'https://l.facebook.com/x', acceptLanguage: 'en-US,en;q=0.9' }))
    recorder.record(visit(linkId, { ip: '81.2.69.160', userAgent: BROWSERS.chromeWindows, referrer: 'https://www.Example.com/page', acceptLanguage: 'de-DE' }))
    recorder.record(visit(linkId, { ip: '2a00:1450:4001::1', userAgent: BROWSERS.safariIpad, referrer: undefined, acceptLanguage: undefined }))
    await recorder.close()
    expect(errors).toEqual([])

    const rows = await db.selectFrom('clicks').selectAll().where('item_type', '=', 'link').where('item_id', '=', linkId).orderBy('id').execute()
    expect(rows.map(({ country, browser, os, device, referrer_host, language, is_unique, account_id }) => ({ country, browser, os, device, referrer_host, language, is_unique, account_id }))).toEqual([
      { country: 'US', browser: 'Mobile Safari', os: 'iOS', device: 'mobile', referrer_host: 'l.facebook.com', language: 'en', is_unique: 1, account_id: accountId },
      { country: 'GB', browser: 'Chrome', os: 'Windows', device: 'desktop', referrer_host: 'example.com', language: 'de', is_unique: 1, account_id: accountId },
      { country: 'DE', browser: 'Mobile Safari', os: 'iOS', device: 'tablet', referrer_host: null, language: null, is_unique: 1, account_id: accountId },
    ])
    expect((await countersOf('link', linkId, 'social')).totals).toEqual({ facebook: 1 })
    expect((await countersOf('link', linkId, 'country')).totals).toEqual({ DE: 1, GB: 1, US: 1 })
    expect((await countersOf('link', linkId, 'device')).totals).toEqual({ desktop: 1, mobile: 1, tablet: 1 })
    expect((await countersOf('link', linkId, 'referrer')).totals).toEqual({ '': 1, 'example.com': 1, 'l.facebook.com': 1 })
    expect((await countersOf('link', linkId, 'language')).totals).toEqual({ '': 1, de: 1, en: 1 })

    const visitors = await db.selectFrom('click_visitors').selectAll().where('item_id', '=', linkId).execute()
    expect(visitors).toHaveLength(3)
    const stored = JSON.stringify([rows, visitors])
    for (const ip of ['8.8.8.8', '81.2.69.160', '2a00:1450:4001::1']) expect(stored).not.toContain(ip)
  })

  it('keeps a batch the database refused, writes nothing of it, and writes it once afterwards', async () => {
    const linkId = (await createLink(made, owner, { custom: 'refused' })).id
    const { recorder, errors } = await startRecorder()
    recorder.record(visit(linkId, { at: new Date('2026-06-01T08:00:00Z') }))
    recorder.record(visit(linkId, { at: new Date('2026-06-01T08:00:01Z') }))
    await recorder.flush()
    const before = { rows: await rawClicksOf(linkId), clicks: await countersOf('link', linkId, 'clicks'), unique: await countersOf('link', linkId, 'unique') }

    for (let i = 0; i < 4; i += 1) recorder.record(visit(linkId, { ip: `10.2.0.${i}`, at: new Date(`2026-06-01T09:00:0${i}Z`) }))
    // The last table of the transaction goes missing: everything before it must roll back.
    await sql`alter table click_totals rename to click_totals_x`.execute(db)
    try {
      await recorder.flush()
    } finally {
      await sql`alter table click_totals_x rename to click_totals`.execute(db)
    }
    expect(errors).toHaveLength(1)
    expect(recorder.pending).toBe(4)
    expect(await rawClicksOf(linkId)).toEqual(before.rows)
    expect(await countersOf('link', linkId, 'clicks')).toEqual(before.clicks)
    expect(await countersOf('link', linkId, 'unique')).toEqual(before.unique)
    expect(await db.selectFrom('click_visitors').select('visitor_hash').where('item_id', '=', linkId).execute()).toHaveLength(1)
    expect(await db.selectFrom('links').select(['clicks', 'unique_clicks']).where('id', '=', linkId).executeTakeFirstOrThrow()).toEqual({ clicks: 2, unique_clicks: 1 })

    await recorder.close()
    expect(errors).toHaveLength(1)
    expect(recorder.pending).toBe(0)
    expect((await rawClicksOf(linkId)).map((row) => row.is_unique)).toEqual([1, 0, 1, 1, 1, 1])
    expect(await countersOf('link', linkId, 'clicks')).toEqual({ days: { '2026-06-01': 6 }, totals: { '': 6 } })
    expect(await countersOf('link', linkId, 'unique')).toEqual({ days: { '2026-06-01': 5 }, totals: { '': 5 } })
    expect(await db.selectFrom('links').select(['clicks', 'unique_clicks']).where('id', '=', linkId).executeTakeFirstOrThrow()).toEqual({ clicks: 6, unique_clicks: 5 })
    await expectAggregatesMatchRaw(db)
  })

  it('prunes visitor rows of days before yesterday once a batch of today is written', async () => {
    const linkId = (await createLink(made, owner, { custom: 'pruned' })).id
    const now = new Date()
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000)
    const dayOf = (date: Date) => nowTimestamp(date).slice(0, 10)
    const { recorder, errors } = await startRecorder()
    // The batch's last click tells the writer which day it is: here five days ago.
    recorder.record(visit(linkId, { at: daysAgo(1) }))
    recorder.record(visit(linkId, { at: daysAgo(5) }))
    await recorder.flush()
    const visitorDays = async () => (await db.selectFrom('click_visitors').select('day').where('item_id', '=', linkId).orderBy('day').execute()).map((row) => row.day)
    expect(await visitorDays()).toEqual([dayOf(daysAgo(5)), dayOf(daysAgo(1))])

    recorder.record(visit(linkId, { at: now }))
    await recorder.close()
    expect(errors).toEqual([])
    expect(await visitorDays()).toEqual([dayOf(daysAgo(1)), dayOf(now)])
    const older = await db.selectFrom('click_visitors').select('day').where('day', '<', dayOf(daysAgo(1))).execute()
    expect(older).toEqual([])
    // Only the visitor rows go: the clicks and their counts stay.
    expect((await rawClicksOf(linkId)).map((row) => row.is_unique)).toEqual([1, 1, 1])
    await expectAggregatesMatchRaw(db)
  })

  it('writes large batches (full 500-row statements, reused) as exactly as small ones', async () => {
    const linkId = (await createLink(made, owner, { custom: 'large-batches' })).id
    const { recorder, errors } = await startRecorder({ batchSize: 500 })
    const random = createRandom(1_337)
    const events = Array.from({ length: 2_345 }, () => visit(linkId, { ip: pick(random, VISITOR_IPS), userAgent: pick(random, Object.values(BROWSERS)) }))
    // Recorded in one go: the writer takes up to four batches (2,000 rows: four full statements) at once.
    for (const event of events) recorder.record(event)
    await recorder.close()
    expect(errors).toEqual([])
    const rows = await rawClicksOf(linkId)
    expect(rows).toHaveLength(2_345)
    expect(rows.map((row) => row.country)).toEqual(events.map((event) => expectedCountryOf(event.ip)))
    await expectAggregatesMatchRaw(db)
  })
})
