// The columnar store (ADR 022, analytics/columnar-store.ts) read through its statistics engine
// (modules/statistics/columnar-query.ts) answers exactly what the SQL engine over the raw clicks
// answers (modules/statistics/click-query.ts, the reference), on both databases:
// for a link, a QR code and a workspace; over whole UTC days, the last days and hours, windows of
// zones two hours and 5h45m (quarter hours) off UTC; with no filter, dimension filters (known,
// unknown '', several values, a value nobody has) and the workspace's link, campaign, channel and
// tag filters. It compares the figures and the live minutes while the clicks sit only in `recent`,
// after upkeep has moved them into the rollups and the sorted copies, after new and late (import-
// dated) clicks, after a link is deleted through the link service (journaled `link.deleted`), when
// click ids commit out of order (a gap filled later), when the store is reopened on its file, when
// the click writer hands its committed batches over (counting the rows the store reads back), and
// for a store made after `audit prune` took the journal's deletions.
// The clicks are written by the real path for enriched clicks (`writeEnrichedClicks`) from a seeded
// spread, so a failing run replays identically; the hand-over's by the click writer itself.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClickWriter, writeEnrichedClicks, type ClickInsertRow, type EnrichedClick, type PendingClick } from '../../src/analytics/click-writer.js'
import { openColumnarStore, type ColumnarStore } from '../../src/analytics/columnar-store.js'
import { createDailySaltHasher } from '../../src/analytics/visitor-hash.js'
import { DAY_MS, MINUTE_MS, nowTimestamp } from '../../src/core/time.js'
import { createColumnarEngine } from '../../src/modules/statistics/columnar-query.js'
import { createRawClickRepository } from '../../src/modules/statistics/raw-click.repository.js'
import { createClickQuery, type StatisticsEngine } from '../../src/modules/statistics/click-query.js'
import { tagKey } from '../../src/modules/tags/tag-names.js'
import { actingAs, createAccount, createCampaign, createChannel, createLink, createQrCode, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'
import { countingReadsOf } from '../helpers/table-reads.js'
import { expectSameAnswers as expectSameAnswersOf, HOUR_MS, spreadClicks, windowsAt, type NamedFilter, type NamedScope, type ParityCases, type Target } from './engine-parity-support.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/test-database.js'

/** The test's clock at the start: a Wednesday afternoon, not on any hour. */
const START = Date.UTC(2026, 10, 25, 14, 37, 20)

describe('the columnar store answers as the SQL engine over the raw clicks', () => {
  let database: TestDatabase
  let made: WithServices
  let owner: TestAccount
  let other: TestAccount
  let sqlEngine: StatisticsEngine
  let store: ColumnarStore | undefined
  let directory: string
  let file: string
  let now = START
  const clock = () => new Date(now)
  let links: Array<{ id: number }>
  let qr: { id: number }
  let otherLink: { id: number }
  let campaignId: number
  let channelId: number
  let targets: Target[]

  /** Writes clicks as imports and the seeder do: raw rows and aggregates in one transaction. */
  async function write(clicks: EnrichedClick[]): Promise<void> {
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, clicks))
  }

  async function clicksInDatabase(): Promise<number> {
    const row = await database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow()
    return Number(row.count)
  }

  function openStore(): Promise<ColumnarStore> {
    return openColumnarStore(database.db, { file, now: clock })
  }

  function currentStore(): ColumnarStore {
    if (!store) throw new Error('the store is not open')
    return store
  }

  const itemFilters: NamedFilter[] = [
    { label: 'no filter', filters: {}, core: true },
    { label: 'country US', filters: { country: ['US'] }, core: true },
    { label: 'unknown country', filters: { country: [''] } },
    { label: 'country US and referrer google.com or direct (unknown)', filters: { country: ['US'], referrer: ['google.com', ''] } },
    { label: 'browser Chrome or Mobile Safari', filters: { browser: ['Chrome', 'Mobile Safari'] } },
    { label: 'language de or unknown, device mobile', filters: { language: ['de', ''], device: ['mobile'] } },
    { label: 'country nobody has (XX)', filters: { country: ['XX'] } },
  ]

  function scopes(): NamedScope[] {
    const [first, second, third] = links as [{ id: number }, { id: number }, { id: number }]
    return [
      { label: `link ${first.id}`, scope: { itemType: 'link', itemId: first.id }, filters: itemFilters },
      { label: `QR code ${qr.id}`, scope: { itemType: 'qr', itemId: qr.id }, filters: itemFilters.slice(0, 3) },
      {
        label: `account ${owner.id}`,
        scope: { accountId: owner.id },
        filters: [
          ...itemFilters,
          { label: `campaign ${campaignId}`, filters: { campaign: [campaignId] }, core: true },
          { label: `link ${second.id}`, filters: { link: [second.id] } },
          { label: `links ${first.id} and ${third.id}, country US`, filters: { link: [first.id, third.id], country: ['US'] } },
          { label: `the other account's link ${otherLink.id}`, filters: { link: [otherLink.id] } },
          { label: `channel ${channelId}`, filters: { channel: [channelId] } },
          { label: 'tag Promo', filters: { tag: [tagKey('Promo')] } },
        ],
      },
      { label: `the other account ${other.id}`, scope: { accountId: other.id }, filters: itemFilters.slice(0, 1) },
    ]
  }

  /** What a comparison asks: every scope, or only the account's (and the first link's); which cases (engine-parity-support.ts). */
  interface Coverage {
    scopes?: 'all' | 'account' | 'first link and account'
    cases?: ParityCases
  }

  /** Asks both engines every case of the scopes (and the live minutes at `now`); fails listing every difference. */
  async function expectSameAnswers(phase: string, coverage: Coverage = {}): Promise<void> {
    // The engine catches the store up before every answer.
    const engine = createColumnarEngine(createRawClickRepository(database.db), currentStore())
    const chosen = scopes().filter((named, index) => {
      const account = 'accountId' in named.scope && named.scope.accountId === owner.id
      if (coverage.scopes === 'account') return account
      if (coverage.scopes === 'first link and account') return index === 0 || account
      return true
    })
    await expectSameAnswersOf({
      phase, name: 'the columnar store', scopes: chosen, expected: sqlEngine, received: engine, now, cases: coverage.cases,
      choices: [{ top: 2 }, { only: [links[1]!.id, links[3]!.id, otherLink.id] }],
    })
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    made = servicesFor(database)
    owner = await createAccount(made)
    other = await createAccount(made)
    campaignId = await createCampaign(made, owner)
    channelId = await createChannel(made, owner)
    links = [
      await createLink(made, owner),
      await createLink(made, owner, { campaign: campaignId }),
      await createLink(made, owner, { tags: ['Promo'] }),
      await createLink(made, owner, { campaign: campaignId, tags: ['Promo'] }),
    ]
    await made.services.channels.assignItem(await actingAs(made, owner), channelId, 'links', links[2]!.id)
    qr = await createQrCode(made, owner)
    otherLink = await createLink(made, other)
    targets = [
      ...links.map((link, index) => ({ accountId: owner.id, itemType: 'link' as const, itemId: link.id, weight: 4 - index })),
      { accountId: owner.id, itemType: 'qr', itemId: qr.id, weight: 2 },
      { accountId: other.id, itemType: 'link', itemId: otherLink.id, weight: 1 },
    ]
    // Ten days of clicks before the clock, plus a few in its last hour (live minutes).
    await write(spreadClicks(1, 700, START - 10 * DAY_MS, START, targets))
    await write(spreadClicks(2, 30, START - 50 * MINUTE_MS, START, targets))
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'columnar-'))
    file = path.join(directory, 'clicks.duckdb')
    sqlEngine = createClickQuery(createRawClickRepository(database.db))
    store = await openStore()
  })

  afterAll(async () => {
    await store?.close()
    if (directory) fs.rmSync(directory, { recursive: true, force: true })
    await database?.destroy()
  })

  it('appends every click of the main database and answers every scope, window and filter as the SQL engine', async () => {
    expect(await currentStore().catchUp()).toBe(await clicksInDatabase())
    expect(await currentStore().catchUp()).toBe(0)
    await expectSameAnswers('caught up')
  })

  it('answers the same after two days, once upkeep has moved the clicks into the rollups and the sorted copies', async () => {
    now = START + 2 * DAY_MS
    await currentStore().compact()
    await expectSameAnswers('compacted two days later')
  })

  it('counts new clicks and late ones dated five days back, before and after the next upkeep', async () => {
    const before = await clicksInDatabase()
    await write(spreadClicks(3, 40, now - 40 * MINUTE_MS, now, targets))
    // As an import writes them: into hours and days the rollups and sorted copies already hold.
    await write(spreadClicks(4, 60, now - 5 * DAY_MS, now - 5 * DAY_MS + 6 * HOUR_MS, targets))
    expect(await currentStore().catchUp()).toBe((await clicksInDatabase()) - before)
    await expectSameAnswers('new and late clicks', { cases: 'filters' })
    now += DAY_MS + 3 * HOUR_MS
    await currentStore().compact()
    await expectSameAnswers('new and late clicks, compacted a day later')
  })

  it('leaves a link deleted through the link service out of the account\'s figures', async () => {
    const deleted = links[2]!
    await made.services.links.deleteLink(await actingAs(made, owner), deleted.id)
    const journaled = await database.db.selectFrom('audit_log').select('id').where('action', '=', 'link.deleted').where('resource_id', '=', deleted.id).execute()
    expect(journaled).toHaveLength(1)
    // The SQL engine leaves the link out (it joins the existing links): the store must too.
    expect(await sqlEngine.figures({ accountId: owner.id }, windowsAt(now)[0]!.window, { link: [deleted.id] }, false)).toMatchObject({ links: [] })
    // Only the account's answers change: its scopes are compared, before upkeep and after.
    await expectSameAnswers(`link ${deleted.id} deleted`, { scopes: 'account', cases: 'filters' })
    await currentStore().compact()
    await expectSameAnswers(`link ${deleted.id} deleted, compacted`, { scopes: 'account' })
  })

  it('counts clicks whose ids commit out of order: an id below one already appended is found later', async () => {
    const highest = await database.db.selectFrom('clicks').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()
    const base = Number(highest.id)
    const row = (createdAt: string, country: string): ClickInsertRow => ({
      account_id: owner.id, item_type: 'link', item_id: links[0]!.id, created_at: createdAt, referrer_host: 'gap.example', user_agent: null,
      language: 'en', visitor_hash: 'gap-visitor', country, browser: 'Chrome', os: 'Windows', device: 'desktop', is_unique: 1, click_id: null,
    })
    // The later transaction commits first: its id is past the one still open.
    await database.db.insertInto('clicks').values({ id: base + 40, ...row(nowTimestamp(new Date(now - 5 * MINUTE_MS)), 'US') }).execute()
    if (testDialect === 'postgres') await sql`select setval(pg_get_serial_sequence('clicks', 'id'), ${base + 40})`.execute(database.db)
    expect(await currentStore().catchUp()).toBe(1)
    await expectSameAnswers('an id committed past a gap', { scopes: 'first link and account', cases: 'core' })
    // The earlier one commits now, dated in a day the upkeep has already compacted.
    await database.db.insertInto('clicks').values({ id: base + 20, ...row(nowTimestamp(new Date(now - 3 * DAY_MS)), '') }).execute()
    expect(await currentStore().catchUp()).toBe(1)
    await expectSameAnswers('the gap filled', { scopes: 'first link and account', cases: 'filters' })
  })

  it('answers the same when reopened on its file, appending nothing', async () => {
    await currentStore().close()
    store = undefined
    store = await openStore()
    expect(await currentStore().catchUp()).toBe(0)
    await expectSameAnswers('reopened')
  })

  it('takes the click writer\'s committed batches as they are, and reads back only clicks it was not handed', async () => {
    // Rows the store reads from `clicks` (a plugin sees every query it makes and its answer).
    const clickReads = countingReadsOf('clicks')
    await currentStore().close()
    store = undefined
    store = await openColumnarStore(database.db.withPlugin(clickReads.plugin), { file, now: clock })
    expect(await currentStore().catchUp()).toBe(0)
    // What the served process does after each commit (services.ts, the recorder's afterCommit).
    const writer = createClickWriter({ db: database.db, visitors: createDailySaltHasher(database.db), withIds: true })
    const writeClicks = async (batch: PendingClick[]) => {
      const written = await writer(batch)
      if (written.ids) currentStore().offer(written.clicks, written.ids)
    }
    const agents = [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    ]
    const visits = (count: number, seed: number): PendingClick[] => Array.from({ length: count }, (_, index) => {
      const target = targets[(index + seed) % targets.length]!
      return {
        accountId: target.accountId, itemType: target.itemType, itemId: target.itemId,
        createdAt: nowTimestamp(new Date(now - (index % 50) * MINUTE_MS)),
        ip: `198.51.100.${(index * 7 + seed) % 250}`, userAgent: agents[index % agents.length]!,
        referrerHost: index % 4 === 0 ? null : ['twitter.com', 'google.com', 'news.example'][index % 3]!, language: index % 5 === 0 ? null : 'de',
      }
    })

    // A batch that continues the store's place: appended as handed over, nothing read back.
    let before = await clicksInDatabase()
    await writeClicks(visits(120, 1))
    clickReads.reset()
    expect(await currentStore().catchUp()).toBe(120)
    expect(clickReads.rows).toBe(0)
    expect(currentStore().position().lastId).toBe(Number((await database.db.selectFrom('clicks').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id))
    expect(await clicksInDatabase()).toBe(before + 120)
    await expectSameAnswers('handed over by the click writer', { cases: 'filters' })

    // Clicks written otherwise (an import) leave a hole before the next batch handed over: both are read back.
    before = await clicksInDatabase()
    await write(spreadClicks(5, 30, now - 30 * MINUTE_MS, now, targets))
    await writeClicks(visits(80, 2))
    clickReads.reset()
    expect(await currentStore().catchUp()).toBe(110)
    expect(clickReads.rows).toBe(110)
    // Two batches in a row: appended one after the other, nothing read back.
    await writeClicks(visits(40, 3))
    await writeClicks(visits(60, 4))
    clickReads.reset()
    expect(await currentStore().catchUp()).toBe(100)
    expect(clickReads.rows).toBe(0)
    // A batch read back before it is handed over (the store caught up between its commit and the hand-over) is not appended twice.
    const late = await writer(visits(30, 5))
    clickReads.reset()
    expect(await currentStore().catchUp()).toBe(30)
    expect(clickReads.rows).toBe(30)
    currentStore().offer(late.clicks, late.ids!)
    expect(await currentStore().catchUp()).toBe(0)
    expect(await clicksInDatabase()).toBe(before + 240)
    await expectSameAnswers('handed over, with clicks written otherwise between', { cases: 'filters' })
  })

  it('leaves out the clicks of links deleted before the store was made, when the journal no longer tells (audit prune)', async () => {
    // The newest link of all, clicked, then deleted: its id is past every link left.
    const newest = await createLink(made, owner)
    await write(spreadClicks(6, 40, now - 2 * DAY_MS, now, [{ accountId: owner.id, itemType: 'link', itemId: newest.id, weight: 1 }]))
    await made.services.links.deleteLink(await actingAs(made, owner), newest.id)
    // `linkwell audit prune` took the journal's entries of both deletions (links[2]'s and this one's).
    await database.db.deleteFrom('audit_log').where('action', '=', 'link.deleted').execute()
    await currentStore().close()
    store = undefined
    file = path.join(directory, 'made-later.duckdb')
    store = await openStore()
    const deletedClicks = await database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('item_type', '=', 'link').where('item_id', 'in', [links[2]!.id, newest.id]).executeTakeFirstOrThrow()
    expect(Number(deletedClicks.count)).toBeGreaterThan(40)
    // Read, not appended: the answers below leave them out.
    expect(await currentStore().catchUp()).toBe(await clicksInDatabase())
    await expectSameAnswers('made after the deletions were pruned from the journal', { scopes: 'account', cases: 'filters' })
    await currentStore().compact()
    await expectSameAnswers('made after the deletions were pruned from the journal, compacted', { scopes: 'account', cases: 'core' })
  })
})
