// `linkwell dev seed-clicks` and `linkwell clicks prune` run as child processes on a database the
// test also opens: what they write or delete is read back from the tables and through the API.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { pruneRawClicks } from '../../src/analytics/click-retention.js'
import { countryLabel } from '../../src/modules/statistics/statistics.mapper.js'
import { expectAggregatesMatchRaw } from '../analytics/click-test-support.js'
import { createAccount, createBioPage, createCampaign, createLink, createQrCode, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'
import { apiClient } from '../helpers/test-app.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'
import { createSharedDatabase, runCli, type SharedDatabase } from './cli-runner.js'
import { DAY_MS, dayAt, expectedTopList, expectFailure, rawClicksOf, recordClicks, snapshotAggregates } from './click-commands-support.js'
import type { ClickEvent } from '../../src/analytics/click-items.js'
import { nowTimestamp } from '../../src/core/time.js'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const unknown = (value: string) => value || 'Unknown'
let aliasCounter = 0

function alias(prefix: string): string {
  aliasCounter += 1
  return `${prefix}${process.pid}x${aliasCounter}`
}

/** Runs invocations side by side (each process takes about a second to start); all must fail as told. */
async function expectFailures(url: string, cases: Array<[code: 1 | 2, mentions: string, args: string[], env?: Record<string, string>]>) {
  const results = await Promise.all(cases.map(([, , args, env]) => runCli(url, args, env)))
  results.forEach((result, index) => {
    const [code, mentions, args] = cases[index]!
    expectFailure(result, code, mentions, `linkwell ${args.join(' ')}`)
  })
}

describe('linkwell dev seed-clicks', () => {
  let shared: SharedDatabase
  let made: WithServices
  let owner: TestAccount

  beforeAll(async () => {
    shared = await createSharedDatabase()
    made = servicesFor(shared.handle)
    owner = await createAccount(made)
  })
  afterAll(() => shared.close())

  it('writes N clicks of a link over D days ending at --last-day; counters, aggregates and statistics agree with the raw rows', async () => {
    const db = shared.handle.db
    const linkId = (await createLink(made, owner, { custom: alias('seed') })).id
    const result = await runCli(shared.url, ['dev', 'seed-clicks', '--link', String(linkId), '--count', '500', '--days', '7', '--last-day', '2026-03-10'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toEqual({ written: 500, from: '2026-03-04', to: '2026-03-10', seconds: expect.any(Number) })

    const raw = await rawClicksOf(db, 'link', linkId)
    expect(raw).toHaveLength(500)
    const uniques = raw.filter((row) => row.is_unique === 1).length
    expect(await db.selectFrom('links').select(['clicks', 'unique_clicks']).where('id', '=', linkId).executeTakeFirstOrThrow()).toEqual({ clicks: 500, unique_clicks: uniques })
    const total = await db.selectFrom('click_totals').select('clicks').where('item_type', '=', 'link').where('item_id', '=', linkId).where('dimension', '=', 'clicks').executeTakeFirstOrThrow()
    expect(Number(total.clicks)).toBe(500)
    // Evenly: each of the 7 days holds 500 / 7 rounded down or up.
    const days = await db.selectFrom('click_days').select(['day', 'clicks']).where('item_type', '=', 'link').where('item_id', '=', linkId).where('dimension', '=', 'clicks').orderBy('day').execute()
    expect(days.map((row) => row.day)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10'])
    for (const row of days) expect([71, 72]).toContain(Number(row.clicks))
    await expectAggregatesMatchRaw(db)

    const api = apiClient(await shared.app(), owner.apiKey)
    const perDay = (day: string) => raw.filter((row) => row.created_at.startsWith(day))
    const stats = await api('GET', `/api/url/${linkId}/stats?from=2026-03-03&to=2026-03-11`)
    expect(stats.statusCode).toBe(200)
    expect(stats.data.data).toMatchObject({
      from: '2026-03-03',
      to: '2026-03-11',
      clicks: 500,
      uniqueClicks: uniques,
      days: ['2026-03-03', ...days.map((row) => row.day), '2026-03-11'].map((date) => ({ date, clicks: perDay(date).length, uniqueClicks: perDay(date).filter((row) => row.is_unique === 1).length })),
      topCountries: expectedTopList(raw.map((row) => row.country), countryLabel),
      topBrowsers: expectedTopList(raw.map((row) => row.browser), unknown),
      topOs: expectedTopList(raw.map((row) => row.os), unknown),
      topDevices: expectedTopList(raw.map((row) => row.device), unknown),
      topLanguages: expectedTopList(raw.map((row) => row.language), unknown),
    })
    const overall = await api('GET', `/api/url/${linkId}`)
    expect(overall.data.data).toMatchObject({ clicks: 500, uniqueClicks: uniques, topCountries: stats.data.data.topCountries, topBrowsers: stats.data.data.topBrowsers, socialCount: stats.data.data.socialCount })
  })

  it('seeds a QR code, a campaign and a bio page; with N = D every day gets one click', async () => {
    const db = shared.handle.db
    const qrId = (await createQrCode(made, owner, { name: alias('qr') })).id
    const campaignId = await createCampaign(made, owner, { name: alias('camp'), slug: alias('camp'), public: true })
    const bioId = (await createBioPage(made, owner, { alias: alias('bio') })).id
    for (const [option, id, count] of [['--qr', qrId, 4], ['--campaign', campaignId, 30], ['--bio', bioId, 12]] as const) {
      const result = await runCli(shared.url, ['dev', 'seed-clicks', option, String(id), '--count', String(count), '--days', '4', '--last-day', '2024-02-29'])
      expect(result.code, result.stderr).toBe(0)
      expect(result.json).toMatchObject({ written: count, from: '2024-02-26', to: '2024-02-29' })
    }
    expect((await db.selectFrom('qr_codes').select('scans').where('id', '=', qrId).executeTakeFirstOrThrow()).scans).toBe(4)
    expect((await db.selectFrom('campaigns').select('views').where('id', '=', campaignId).executeTakeFirstOrThrow()).views).toBe(30)
    const qrDays = await db.selectFrom('click_days').select(['day', 'clicks']).where('item_type', '=', 'qr').where('item_id', '=', qrId).where('dimension', '=', 'clicks').orderBy('day').execute()
    expect(qrDays.map((row) => [row.day, Number(row.clicks)])).toEqual([['2024-02-26', 1], ['2024-02-27', 1], ['2024-02-28', 1], ['2024-02-29', 1]])
    expect(await rawClicksOf(db, 'bio', bioId)).toHaveLength(12)
    await expectAggregatesMatchRaw(db)

    const api = apiClient(await shared.app(), owner.apiKey)
    for (const [kind, id, count] of [['qr', qrId, 4], ['campaign', campaignId, 30], ['bio', bioId, 12]] as const) {
      const stats = await api('GET', `/api/${kind}/${id}/stats?from=2024-02-26&to=2024-02-29`)
      expect(stats.data.data.clicks, kind).toBe(count)
      expect(stats.data.data.days.map((day: { clicks: number }) => day.clicks).reduce((a: number, b: number) => a + b), kind).toBe(count)
    }
  })

  it('--workspace spreads clicks over the account\'s first L links, creating the missing ones; most clicks go to the first (Zipf)', async () => {
    const db = shared.handle.db
    const workspace = await createAccount(made)
    const existing = (await createLink(made, workspace, { custom: alias('ws') })).id
    const result = await runCli(shared.url, ['dev', 'seed-clicks', '--workspace', String(workspace.id), '--links', '5', '--count', '2000', '--days', '3', '--last-day', '2026-03-10'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toEqual({ written: 2000, links: 5, from: '2026-03-08', to: '2026-03-10', seconds: expect.any(Number) })
    const links = await db.selectFrom('links').select(['id', 'clicks']).where('account_id', '=', workspace.id).orderBy('id').execute()
    expect(links).toHaveLength(5)
    expect(links[0]!.id).toBe(existing)
    expect(links.reduce((sum, row) => sum + row.clicks, 0)).toBe(2000)
    // Zipf (s = 1) over 5 links: the first gets 1 / H(5) ≈ 44 %, the last ≈ 9 %.
    expect(links[0]!.clicks).toBeGreaterThan(700)
    expect(links[4]!.clicks).toBeLessThan(300)
    expect(links[4]!.clicks).toBeGreaterThan(0)
    await expectAggregatesMatchRaw(db)
    await expectFailures(shared.url, [
      [1, 'No account with the id 999999.', ['dev', 'seed-clicks', '--workspace', '999999', '--count', '5']],
      [2, '--links goes with --workspace only', ['dev', 'seed-clicks', '--link', String(existing), '--links', '3', '--count', '5']],
      [2, '--links must be a whole number', ['dev', 'seed-clicks', '--workspace', String(workspace.id), '--links', '0', '--count', '5']],
    ])
    expect((await db.selectFrom('links').select('id').where('account_id', '=', workspace.id).execute())).toHaveLength(5)
  })

  it('spreads over 90 days ending today (UTC) when --days and --last-day are left out', async () => {
    const linkId = (await createLink(made, owner, { custom: alias('default') })).id
    const started = Date.now()
    const result = await runCli(shared.url, ['dev', 'seed-clicks', '--link', String(linkId), '--count', '180'])
    expect(result.code, result.stderr).toBe(0)
    // The command's "today" is one of the days the run spanned.
    expect([dayAt(started), dayAt(Date.now())]).toContain(result.json.to)
    expect(result.json).toMatchObject({ written: 180, from: dayAt(Date.parse(`${result.json.to}T00:00:00Z`), -89) })
    const days = await shared.handle.db.selectFrom('click_days').select('day').where('item_type', '=', 'link').where('item_id', '=', linkId).where('dimension', '=', 'clicks').execute()
    expect(days).toHaveLength(90)
  })

  it('refuses bad command lines with exit 2 and writes nothing', async () => {
    const linkId = (await createLink(made, owner, { custom: alias('refused') })).id
    const link = String(linkId)
    await expectFailures(shared.url, [
      [2, 'give exactly one of --link, --qr, --campaign, --bio or --workspace', ['dev', 'seed-clicks', '--count', '5']],
      [2, 'give exactly one of --link, --qr, --campaign, --bio or --workspace', ['dev', 'seed-clicks', '--link', link, '--qr', link, '--count', '5']],
      [2, '--count', ['dev', 'seed-clicks', '--link', link]],
      [2, '--count must be a whole number', ['dev', 'seed-clicks', '--link', link, '--count', '0']],
      [2, '--count must be a whole number', ['dev', 'seed-clicks', '--link', link, '--count', 'abc']],
      [2, '--days must be a whole number', ['dev', 'seed-clicks', '--link', link, '--count', '5', '--days', '0']],
      [2, '--last-day must be a date YYYY-MM-DD, got "2026-02-30"', ['dev', 'seed-clicks', '--link', link, '--count', '5', '--last-day', '2026-02-30']],
      [2, '--link must be a whole number', ['dev', 'seed-clicks', '--link', 'abc', '--count', '5']],
    ])
    expect(await rawClicksOf(shared.handle.db, 'link', linkId)).toEqual([])
    expect((await shared.handle.db.selectFrom('links').select('clicks').where('id', '=', linkId).executeTakeFirstOrThrow()).clicks).toBe(0)
  })

  it('fails with exit 1 naming an item that does not exist', async () => {
    await expectFailures(shared.url, [
      [1, 'No link with the id 999999.', ['dev', 'seed-clicks', '--link', '999999', '--count', '5']],
      [1, 'No QR code with the id 999999.', ['dev', 'seed-clicks', '--qr', '999999', '--count', '5']],
    ])
  })
})

describe('linkwell clicks prune', () => {
  let shared: SharedDatabase
  let made: WithServices
  let owner: TestAccount

  // A prune reaches every item of the database: each test gets its own.
  beforeEach(async () => {
    shared = await createSharedDatabase()
    made = servicesFor(shared.handle)
    owner = await createAccount(made)
  })
  afterEach(() => shared.close())

  const visit = (itemType: 'link' | 'qr', itemId: number, at: number, userAgent = CHROME, ip = '8.8.8.8'): ClickEvent => ({
    accountId: owner.id, itemType, itemId, ip, userAgent, referrer: 'https://t.co/x', acceptLanguage: 'de-DE', at: new Date(at),
  })

  async function statisticsOf(linkId: number, qrId: number, started: number) {
    const api = apiClient(await shared.app(), owner.apiKey)
    const range = `from=${dayAt(started, -120)}&to=${dayAt(started)}`
    const answers = await Promise.all([`/api/url/${linkId}`, `/api/url/${linkId}/stats?${range}`, `/api/qr/${qrId}`, `/api/qr/${qrId}/stats?${range}`].map((url) => api('GET', url)))
    return answers.map((answer) => answer.data)
  }

  it('refuses to run without a retention period (raw clicks are kept forever) and on a bad --days, deleting nothing', async () => {
    const linkId = (await createLink(made, owner, { custom: alias('keep') })).id
    await recordClicks(shared.handle.db, [visit('link', linkId, Date.now() - 400 * DAY_MS)])
    await expectFailures(shared.url, [
      [2, 'CLICK_RETENTION_DAYS is not set and --days was not given: raw clicks are kept forever', ['clicks', 'prune'], { CLICK_RETENTION_DAYS: '' }],
      [2, '--days must be a whole number', ['clicks', 'prune', '--days', '0']],
      [2, '--days must be a whole number', ['clicks', 'prune', '--days', 'abc']],
    ])
    expect(await rawClicksOf(shared.handle.db, 'link', linkId)).toHaveLength(1)
  })

  it('--days N deletes exactly the raw clicks older than N days to the second; aggregates, counters and statistics stay', async () => {
    const db = shared.handle.db
    const linkId = (await createLink(made, owner, { custom: alias('prune') })).id
    const qrId = (await createQrCode(made, owner, { name: alias('pruneqr') })).id
    const started = Date.now()
    const cutoff = started - 30 * DAY_MS
    // Old: 40 days, a minute past the cutoff, 100 days. Kept: ten minutes inside it, a day old, now (last: see below).
    await recordClicks(db, [
      ...[CHROME, IPHONE, CHROME].map((agent, index) => visit('link', linkId, started - 40 * DAY_MS + index * 1000, agent)),
      visit('link', linkId, cutoff - 60_000), visit('link', linkId, cutoff - 60_000, IPHONE, '81.2.69.160'),
      visit('qr', qrId, started - 100 * DAY_MS), visit('qr', qrId, started - 100 * DAY_MS, IPHONE),
      visit('link', linkId, cutoff + 600_000), visit('link', linkId, cutoff + 600_000, IPHONE),
      visit('link', linkId, started - DAY_MS), visit('link', linkId, started - DAY_MS, IPHONE, '81.2.69.160'),
      visit('qr', qrId, started),
    ])
    await expectAggregatesMatchRaw(db)
    // Visitor rows of an old day, besides those the writer keeps for today and yesterday.
    await db.insertInto('click_visitors').values([1, 2, 3].map((n) => ({ day: dayAt(started, -5), item_type: 'link', item_id: linkId, visitor_hash: `old${n}` }))).execute()
    const visitorsBefore = (await db.selectFrom('click_visitors').select('day').execute()).length
    const rawBefore = await db.selectFrom('clicks').select(['id', 'created_at']).orderBy('id').execute()
    expect(rawBefore).toHaveLength(12)
    const aggregatesBefore = await snapshotAggregates(db)
    const statisticsBefore = await statisticsOf(linkId, qrId, started)
    expect(statisticsBefore[0].data.clicks).toBe(9)

    const result = await runCli(shared.url, ['clicks', 'prune', '--days', '30'], { CLICK_RETENTION_DAYS: '' })
    const finished = Date.now()
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toEqual({ deleted: 7, before: expect.any(String), days: 30, visitorRows: expect.any(Number) })
    // The cutoff is the command's own "now" less 30 days, time of day included.
    expect(result.json.before >= nowTimestamp(new Date(cutoff))).toBe(true)
    expect(result.json.before <= nowTimestamp(new Date(finished - 30 * DAY_MS))).toBe(true)
    const rawAfter = await db.selectFrom('clicks').select(['id', 'created_at']).orderBy('id').execute()
    expect(rawAfter).toEqual(rawBefore.filter((row) => row.created_at >= result.json.before))
    expect(rawAfter.map((row) => row.created_at)).toEqual([cutoff + 600_000, cutoff + 600_000, started - DAY_MS, started - DAY_MS, started].map((time) => nowTimestamp(new Date(time))))

    const oldVisitors = await db.selectFrom('click_visitors').select('day').where('day', '=', dayAt(started, -5)).execute()
    expect(oldVisitors).toEqual([])
    expect(result.json.visitorRows).toBe(visitorsBefore - (await db.selectFrom('click_visitors').select('day').execute()).length)
    expect(result.json.visitorRows).toBeGreaterThanOrEqual(3)

    expect(await snapshotAggregates(db)).toEqual(aggregatesBefore)
    expect(await statisticsOf(linkId, qrId, started)).toEqual(statisticsBefore)
  })

  it('takes CLICK_RETENTION_DAYS when --days is left out, and deletes more clicks than one chunk (10,000)', async () => {
    const db = shared.handle.db
    const linkId = (await createLink(made, owner, { custom: alias('bulk') })).id
    const qrId = (await createQrCode(made, owner, { name: alias('bulkqr') })).id
    const started = Date.now()
    const seeded = await runCli(shared.url, ['dev', 'seed-clicks', '--link', String(linkId), '--count', '12000', '--days', '30', '--last-day', dayAt(started, -40)])
    expect(seeded.code, seeded.stderr).toBe(0)
    await recordClicks(db, [visit('qr', qrId, started - 10 * DAY_MS), visit('link', linkId, started - 1000), visit('link', linkId, started, IPHONE)])
    const aggregatesBefore = await snapshotAggregates(db)
    const statisticsBefore = await statisticsOf(linkId, qrId, started)
    expect(statisticsBefore[0].data.clicks).toBe(12_002)

    const result = await runCli(shared.url, ['clicks', 'prune'], { CLICK_RETENTION_DAYS: '30' })
    expect(result.code, result.stderr).toBe(0)
    expect(result.json).toMatchObject({ deleted: 12_000, days: 30 })
    expect(await rawClicksOf(db, 'link', linkId)).toHaveLength(2)
    expect(await rawClicksOf(db, 'qr', qrId)).toHaveLength(1)
    expect(await snapshotAggregates(db)).toEqual(aggregatesBefore)
    expect(await statisticsOf(linkId, qrId, started)).toEqual(statisticsBefore)
  })
})

describe('pruneRawClicks', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database.destroy())

  it('deletes in chunks until fewer than a chunk remain; a click at exactly the cutoff is kept', async () => {
    const db = database.db
    const made = servicesFor(database)
    const owner = await createAccount(made)
    const accountId = owner.id
    const linkId = (await createLink(made, owner, { custom: alias('chunk') })).id
    const times = [
      ...[1, 2, 3, 4, 5, 6].map((day) => `2026-01-0${day} 08:00:00`),
      '2026-01-10 12:00:00', '2026-01-10 12:00:01', ...[1, 2, 3, 4, 5].map((day) => `2026-02-0${day} 08:00:00`),
      '2026-02-10 12:00:00', '2026-02-10 12:00:01', '2026-03-01 00:00:00',
    ]
    await db.insertInto('clicks').values(times.map((createdAt) => ({
      account_id: accountId, item_type: 'link', item_id: linkId, created_at: createdAt, referrer_host: null, user_agent: CHROME, language: null,
      visitor_hash: 'v', country: null, browser: 'Chrome', os: 'Windows', device: 'desktop', is_unique: 0,
    }))).execute()
    const remaining = async () => (await db.selectFrom('clicks').select('created_at').where('account_id', '=', accountId).orderBy('created_at').execute()).map((row) => row.created_at)
    // Another account's clicks, old and new: pruned by the same cutoff, account by account.
    const other = await createAccount(made)
    const otherLink = (await createLink(made, other, { custom: alias('chunk-other') })).id
    const otherTimes = ['2025-12-31 23:59:59', '2026-01-05 00:00:00', '2026-02-11 00:00:00']
    await db.insertInto('clicks').values(otherTimes.map((createdAt) => ({
      account_id: other.id, item_type: 'link', item_id: otherLink, created_at: createdAt, referrer_host: null, user_agent: CHROME, language: null,
      visitor_hash: 'v', country: null, browser: 'Chrome', os: 'Windows', device: 'desktop', is_unique: 0,
    }))).execute()
    const otherRemaining = async () => (await db.selectFrom('clicks').select('created_at').where('account_id', '=', other.id).orderBy('created_at').execute()).map((row) => row.created_at)

    // Six is two full chunks of three: the loop needs a third, empty, statement to stop.
    expect(await pruneRawClicks(db, '2026-01-10 12:00:00', 3)).toBe(6 + 2)
    expect(await remaining()).toEqual(times.slice(6))
    expect(await otherRemaining()).toEqual(['2026-02-11 00:00:00'])
    expect(await pruneRawClicks(db, '2026-02-10 12:00:00', 3)).toBe(7)
    expect(await otherRemaining()).toEqual(['2026-02-11 00:00:00'])
    expect(await remaining()).toEqual(['2026-02-10 12:00:00', '2026-02-10 12:00:01', '2026-03-01 00:00:00'])
    expect(await pruneRawClicks(db, '2026-02-10 12:00:00', 3)).toBe(0)
  })
})
