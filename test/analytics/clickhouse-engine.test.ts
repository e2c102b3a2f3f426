// The ClickHouse engine (issue 40, ADR 035: analytics/clickhouse-store.ts, clickhouse-feeder.ts,
// modules/statistics/clickhouse-query.ts) answers exactly what the SQL engine over the raw clicks
// answers (click-query.ts, the reference), on both databases, against a real clickhouse-server
// (test/global-setup.ts): a link, a QR code, a workspace; whole UTC days, the last days and hours,
// zones 2 hours and 5h45m (quarter hours) off UTC; no filter, dimension filters (known, unknown '',
// several values, a value nobody has), the workspace's link, campaign, channel and tag filters,
// the top links and chosen links; the live minutes. It compares them after the first copy, after
// new and late (import-dated) clicks, after a link is deleted through the link service, when ids
// commit out of order (a gap filled later), and after the feeder's cursor is moved back as a crash
// between an insert and the cursor's move leaves it (nothing is written twice); a deleted
// workspace's clicks leave ClickHouse.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { writeEnrichedClicks, type ClickInsertRow, type EnrichedClick } from '../../src/analytics/click-writer.js'
import { DAY_MS, MINUTE_MS, nowTimestamp } from '../../src/core/time.js'
import { openClickhouseStore } from '../../src/analytics/clickhouse-store.js'
import { createClickQuery, type StatisticsEngine } from '../../src/modules/statistics/click-query.js'
import { createRawClickRepository } from '../../src/modules/statistics/raw-click.repository.js'
import { tagKey } from '../../src/modules/tags/tag-names.js'
import { clickhouseQuery, clickhouseTarget, describeWithClickhouse, dropClickhouseDatabase } from '../helpers/clickhouse.js'
import { actingAs, createAccount, createCampaign, createChannel, createLink, createQrCode, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/test-database.js'
import { expectSameAnswers as expectSameAnswersOf, normalized, spreadClicks, windowsAt, type NamedFilter, type NamedScope, type ParityCases, type Target } from './engine-parity-support.js'

const START = Date.now()

describeWithClickhouse('the ClickHouse engine answers as the SQL engine over the raw clicks', () => {
  const target = clickhouseTarget('parity')
  let database: TestDatabase
  let made: WithServices
  let fed: WithServices
  let owner: TestAccount
  let other: TestAccount
  let sqlEngine: StatisticsEngine
  let links: Array<{ id: number }>
  let qr: { id: number }
  let otherLink: { id: number }
  let campaignId: number
  let channelId: number
  let targets: Target[]
  const now = START

  async function write(clicks: EnrichedClick[]): Promise<void> {
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, clicks))
  }

  const itemFilters: NamedFilter[] = [
    { label: 'no filter', filters: {}, core: true },
    { label: 'country US', filters: { country: ['US'] }, core: true },
    { label: 'unknown country', filters: { country: [''] } },
    { label: 'country US and referrer google.com or direct (unknown)', filters: { country: ['US'], referrer: ['google.com', ''] } },
    { label: 'browser Chrome or Mobile Safari', filters: { browser: ['Chrome', 'Mobile Safari'] } },
    { label: 'language de or unknown, device mobile', filters: { language: ['de', ''], device: ['mobile'] } },
    { label: "a value nobody has, with a quote and a backslash (X'\\)", filters: { country: ["X'\\"] } },
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

  /** Asks both engines every case of the scopes (or the account's), the links' choices and the live minutes; fails listing every difference. */
  async function expectSameAnswers(phase: string, only?: 'account', cases: ParityCases = 'full'): Promise<number> {
    return expectSameAnswersOf({
      phase, name: 'ClickHouse', expected: sqlEngine, received: fed.services.analyticsStore.engine, now, cases,
      scopes: scopes().filter((named) => only !== 'account' || ('accountId' in named.scope && named.scope.accountId === owner.id)),
      choices: [{ top: 2 }, { only: [links[1]!.id, links[3]!.id, otherLink.id] }],
    })
  }

  async function clickhouseCount(where = '1'): Promise<number> {
    return Number((await clickhouseQuery(`SELECT count() FROM \`${target.database}\`.clicks WHERE ${where}`)).trim())
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    made = servicesFor(database)
    fed = servicesFor(database, { ANALYTICS_STORE: target.env })
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
    await write(spreadClicks(1, 700, START - 10 * DAY_MS, START, targets))
    await write(spreadClicks(2, 30, START - 50 * MINUTE_MS, START, targets))
    sqlEngine = createClickQuery(createRawClickRepository(database.db))
    // As the served app does on ready: this process feeds ClickHouse (and copies before it answers).
    await fed.services.analyticsStore.start()
  })

  afterAll(async () => {
    await fed?.services.close()
    await made?.services.close()
    await database?.destroy()
    await dropClickhouseDatabase(target.database)
  })

  it('copies every click once and answers every scope, window and filter as the SQL engine', async () => {
    expect(fed.services.analyticsStore.engineName).toBe('clickhouse')
    await expectSameAnswers('first copy')
    expect(await clickhouseCount()).toBe(730)
    const state = await fed.services.analyticsStore.clickhouse!.feeder.state()
    expect(state).toMatchObject({ holder: fed.services.analyticsStore.clickhouse!.feeder.id, fedClicks: 730, gaps: 0 })
  })

  it('counts new clicks and late ones dated five days back', async () => {
    await write(spreadClicks(3, 40, now - 40 * MINUTE_MS, now, targets))
    await write(spreadClicks(4, 60, now - 5 * DAY_MS, now - 5 * DAY_MS + 6 * 3_600_000, targets))
    await expectSameAnswers('new and late clicks', undefined, 'core')
    expect(await clickhouseCount()).toBe(830)
  })

  it('writes nothing twice when the cursor is behind what ClickHouse holds (a crash between insert and cursor)', async () => {
    // The cursor as a feeder killed after its insert leaves it: 100 clicks behind.
    const { lastId } = await fed.services.analyticsStore.clickhouse!.feeder.state()
    await database.db.updateTable('clickhouse_feed').set({ last_id: lastId - 100 }).where('id', '=', 1).execute()
    expect(await fed.services.analyticsStore.clickhouse!.feeder.round()).toBe(0)
    expect((await fed.services.analyticsStore.clickhouse!.feeder.state()).lastId).toBe(lastId)
    expect(await clickhouseCount()).toBe(830)
    await expectSameAnswers('cursor moved back', undefined, 'core')
  })

  it('leaves a link deleted through the link service out, and its clicks leave ClickHouse', async () => {
    const deleted = links[2]!
    const before = await clickhouseCount(`item_type = 0 AND item_id = ${deleted.id}`)
    expect(before).toBeGreaterThan(0)
    await made.services.links.deleteLink(await actingAs(made, owner), deleted.id)
    await expectSameAnswers(`link ${deleted.id} deleted`, 'account')
    // The account-level rollups keep its clicks; its rows subtracted once (FINAL), even written again.
    const subtracted = () => clickhouseQuery(`SELECT sum(c) FROM \`${target.database}\`.subtracted_hours FINAL WHERE item_id = ${deleted.id}`).then((text) => Number(text.trim()))
    expect(await subtracted()).toBe(before)
    await fed.services.analyticsStore.clickhouse!.store.deleteItems([deleted.id], [])
    expect(await subtracted()).toBe(before)
    await expectSameAnswers(`link ${deleted.id} deleted twice`, 'account')
    // The mutation runs in the background of ClickHouse.
    await expect.poll(() => clickhouseCount(`item_type = 0 AND item_id = ${deleted.id}`), { timeout: 30_000, interval: 250 }).toBe(0)
  })

  it('counts clicks whose ids commit out of order: an id below one already copied is found later', async () => {
    const highest = Number((await database.db.selectFrom('clicks').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id)
    const row = (createdAt: string, country: string): ClickInsertRow => ({
      account_id: owner.id, item_type: 'link', item_id: links[0]!.id, created_at: createdAt, referrer_host: 'gap.example', user_agent: null,
      language: 'en', visitor_hash: 'gap-visitor', country, browser: 'Chrome', os: 'Windows', device: 'desktop', is_unique: 1, click_id: null,
    })
    await database.db.insertInto('clicks').values({ id: highest + 40, ...row(nowTimestamp(new Date(now - 5 * MINUTE_MS)), 'US') }).execute()
    if (testDialect === 'postgres') await sql`select setval(pg_get_serial_sequence('clicks', 'id'), ${highest + 40})`.execute(database.db)
    // Copied by this round or by the background loop's, which may have run since the insert.
    expect(await fed.services.analyticsStore.clickhouse!.feeder.round()).not.toBeNull()
    expect(await clickhouseCount(`id = ${highest + 40}`)).toBe(1)
    expect((await fed.services.analyticsStore.clickhouse!.feeder.state()).gaps).toBe(39)
    await database.db.insertInto('clicks').values({ id: highest + 20, ...row(nowTimestamp(new Date(now - 3 * DAY_MS)), '') }).execute()
    await expectSameAnswers('the gap filled', undefined, 'core')
    expect((await fed.services.analyticsStore.clickhouse!.feeder.state()).gaps).toBe(38)
  })

  it('answers a workspace\'s unfiltered questions of whole hours from the rollups, and a filtered one from the clicks', async () => {
    const { store } = fed.services.analyticsStore.clickhouse!
    const window = { start: Math.floor(now / 3_600_000) * 3_600_000 - 48 * 3_600_000, end: Math.floor(now / 3_600_000) * 3_600_000 }
    const total = async (filters: Record<string, string[]> = {}) => (await store.figures({ scope: { accountId: owner.id }, ...window, filters, quarters: false })).slots.reduce((sum, slot) => sum + slot.clicks, 0)
    const [unfiltered, filtered] = [await total(), await total({ device: ['desktop', 'mobile', 'tablet', ''] })]
    // A row written into the hourly rollup by hand shows in the unfiltered answer only; a row against it takes it away.
    const marker = (clicks: number) => clickhouseQuery(`INSERT INTO \`${target.database}\`.account_hours VALUES (${owner.id}, toDateTime(${window.start / 1000}, 'UTC'), ${clicks}, 0)`)
    await marker(1_000)
    try {
      expect(await total()).toBe(unfiltered + 1_000)
      expect(await total({ device: ['desktop', 'mobile', 'tablet', ''] })).toBe(filtered)
    } finally {
      await marker(-1_000)
    }
    expect(await total()).toBe(unfiltered)
  })

  it('answers long windows (whole months and weeks from their rollups, a deleted link\'s rows subtracted) as the SQL engine, and the monthly rollups really answer', async () => {
    // Clicks over the last 100 days (imported, dated back), a link deleted afterwards.
    const today = Math.floor(now / DAY_MS) * DAY_MS
    const extra = await createLink(made, owner)
    await write(spreadClicks(3, 600, today - 100 * DAY_MS, today, [...targets, { accountId: owner.id, itemType: 'link', itemId: extra.id, weight: 3 }]))
    expect(await fed.services.analyticsStore.clickhouse!.feeder.round()).toBeGreaterThan(0)
    await made.services.links.deleteLink(await actingAs(made, owner), extra.id)
    expect(await fed.services.analyticsStore.clickhouse!.feeder.round()).toBe(0)
    const hour = Math.floor(now / 3_600_000) * 3_600_000
    const windows = [
      { label: '100 whole UTC days', start: today - 99 * DAY_MS, end: today + DAY_MS },
      { label: '90 UTC days from the 2nd of a month', start: Date.UTC(new Date(today).getUTCFullYear(), new Date(today).getUTCMonth() - 3, 2), end: Date.UTC(new Date(today).getUTCFullYear(), new Date(today).getUTCMonth() - 3, 92) },
      { label: '75 days and hours at both ends', start: hour - 75 * DAY_MS - 5 * 3_600_000, end: hour },
    ]
    const engine = fed.services.analyticsStore.engine
    for (const window of windows) {
      for (const choice of [undefined, { top: 2 }]) {
        const expected = normalized(await sqlEngine.figures({ accountId: owner.id }, window, {}, false, choice))
        expect(normalized(await engine.figures({ accountId: owner.id }, window, {}, false, choice)), `${window.label} ${JSON.stringify(choice)}`).toEqual(expected)
      }
    }
    // A row written by hand into the monthly rollup of links shows in a window holding that whole month, and not in one without it.
    const { store } = fed.services.analyticsStore.clickhouse!
    const month = Date.UTC(new Date(today).getUTCFullYear(), new Date(today).getUTCMonth() - 1, 1)
    const holding = { start: month - DAY_MS, end: Date.UTC(new Date(month).getUTCFullYear(), new Date(month).getUTCMonth() + 1, 2) }
    const linkClicks = async (window: { start: number; end: number }) => (await store.figures({ scope: { accountId: owner.id }, ...window, filters: {}, quarters: false })).links?.find((link) => link.id === links[0]!.id)?.clicks ?? 0
    const [before, beside] = [await linkClicks(holding), await linkClicks({ start: month + DAY_MS, end: holding.end })]
    const marker = (clicks: number) => clickhouseQuery(`INSERT INTO \`${target.database}\`.link_months VALUES (${owner.id}, ${links[0]!.id}, toDate('${new Date(month).toISOString().slice(0, 10)}'), ${clicks}, 0)`)
    // With CLICK_RETENTION_DAYS reaching into that month, its days are read from the daily rollups
    // (retention may have removed some of the month's clicks): the marker does not show, the answers agree.
    const retaining = await openClickhouseStore({ ...target, retentionDays: (now - month) / DAY_MS - 3 })
    await marker(1_000)
    try {
      expect(await linkClicks(holding)).toBe(before + 1_000)
      expect(await linkClicks({ start: month + DAY_MS, end: holding.end })).toBe(beside)
      expect((await retaining.figures({ scope: { accountId: owner.id }, ...holding, filters: {}, quarters: false })).links?.find((link) => link.id === links[0]!.id)?.clicks ?? 0).toBe(before)
      for (const window of windows) {
        const expected = await sqlEngine.figures({ accountId: owner.id }, window, {}, false)
        const received = await retaining.figures({ scope: { accountId: owner.id }, ...window, filters: {}, quarters: false })
        expect(received.slots.reduce((sum, slot) => sum + slot.clicks, 0), window.label).toBe(expected.slots.reduce((sum, slot) => sum + slot.clicks, 0))
        expect(received.values.country.reduce((sum, value) => sum + value.clicks, 0), window.label).toBe(expected.slots.reduce((sum, slot) => sum + slot.clicks, 0))
        expect(new Map(received.links!.map((link) => [link.id, link.clicks])), window.label).toEqual(new Map(expected.links!.map((link) => [link.id, link.clicks])))
      }
    } finally {
      await marker(-1_000)
      await retaining.close()
    }
  })

  it('counts every click of an item recorded under two accounts in a question the by-value copy answers (it is asked per account)', async () => {
    const shared = await createLink(made, owner)
    await write(spreadClicks(4, 120, now - 5 * DAY_MS, now, [
      { accountId: owner.id, itemType: 'link', itemId: shared.id, weight: 2 },
      { accountId: other.id, itemType: 'link', itemId: shared.id, weight: 1 },
    ]))
    expect(await fed.services.analyticsStore.clickhouse!.feeder.round()).toBeGreaterThan(0)
    expect(await clickhouseCount(`item_id = ${shared.id} AND account_id = ${other.id}`)).toBeGreaterThan(0)
    const window = { start: Math.floor(now / DAY_MS) * DAY_MS - 6 * DAY_MS, end: Math.floor(now / DAY_MS) * DAY_MS + DAY_MS }
    const scope = { itemType: 'link' as const, itemId: shared.id }
    const total = (figures: { slots: Array<{ clicks: number }> }) => figures.slots.reduce((sum, slot) => sum + slot.clicks, 0)
    for (const filters of [{ country: ['US', 'DE', 'FR', 'GB', ''] }, { referrer: ['google.com', ''] }, {}]) {
      const expected = normalized(await sqlEngine.figures(scope, window, filters, false))
      expect(normalized(await fed.services.analyticsStore.engine.figures(scope, window, filters, false)), JSON.stringify(filters)).toEqual(expected)
    }
    expect(total(await fed.services.analyticsStore.engine.figures(scope, window, {}, false))).toBe(120)
    // Gone again, so that the next tests' workspaces hold what they did.
    await made.services.links.deleteLink(await actingAs(made, owner), shared.id)
    expect(await fed.services.analyticsStore.clickhouse!.feeder.round()).toBe(0)
  })

  it('a deleted workspace\'s clicks leave ClickHouse', async () => {
    expect(await clickhouseCount(`account_id = ${other.id}`)).toBeGreaterThan(0)
    // As the administrator does (`user.deleted`; an owner's `workspace.deleted` is read the same way).
    await made.services.accounts.deleteAccount(await actingAs(made, owner), other.id)
    expect(await fed.services.analyticsStore.clickhouse!.feeder.round()).toBe(0)
    await expect.poll(() => clickhouseCount(`account_id = ${other.id}`), { timeout: 30_000, interval: 250 }).toBe(0)
    const figures = await fed.services.analyticsStore.engine.figures({ accountId: other.id }, windowsAt(now)[0]!.window, {}, false)
    expect(figures.slots).toEqual([])
  })

  it('a store filled before the daily rollups and the by-value copy gets them once, from its clicks, answering as the SQL engine meanwhile (the build idempotent, an interrupted one started over)', async () => {
    const db = `\`${target.database}\``
    // As a store of layout 1 was: no daily, weekly or monthly rollups, no by-value copy, version 1 written.
    await fed.services.close()
    const later = ['clicks_by_value', 'account_day_values', 'link_days', 'account_week_values', 'link_weeks', 'account_month_values', 'link_months']
    for (const name of later) await clickhouseQuery(`DROP TABLE ${db}.${name}_feed`)
    for (const name of [...later, 'subtracted_day_values']) await clickhouseQuery(`DROP TABLE ${db}.${name}`)
    await clickhouseQuery(`TRUNCATE TABLE ${db}.layout`)
    await clickhouseQuery(`INSERT INTO ${db}.layout VALUES (1)`)
    // A new instance (the new version): its tables made empty, answers from the click tables until the layout is built.
    fed = servicesFor(database, { ANALYTICS_STORE: target.env })
    const { store } = await (async () => {
      await fed.services.analyticsStore.engine.figures({ accountId: owner.id }, windowsAt(now)[0]!.window, {}, false)
      return fed.services.analyticsStore.clickhouse!
    })()
    expect(await store.layoutReady()).toBe(false)
    await expectSameAnswers('before the build (the click tables answer)', 'account', 'core')
    // A build that loses the lease after a few statements stops, the version not written.
    let asked = 0
    await expect(store.buildLayout(async () => ++asked < 6)).rejects.toThrow(/lost its lease/)
    expect(await store.layoutReady()).toBe(false)
    const held = async () => {
      const number = async (query: string) => Number((await clickhouseQuery(query)).trim())
      const linkClicks = `FROM ${db}.clicks WHERE item_type = 0 AND item_id NOT IN (SELECT id FROM ${db}.deleted_links) AND account_id NOT IN (SELECT id FROM ${db}.deleted_accounts)`
      return {
        clicks: await number(`SELECT count() ${linkClicks}`),
        byValue: await number(`SELECT count() FROM ${db}.clicks_by_value WHERE item_type = 0`),
        dayValues: await number(`SELECT sum(c) FROM ${db}.account_day_values`),
        hourValues: await number(`SELECT sum(c) FROM ${db}.account_hour_values`),
        days: await number(`SELECT sum(c) FROM ${db}.link_days`),
        weeks: await number(`SELECT sum(c) FROM ${db}.link_weeks`),
        months: await number(`SELECT sum(c) FROM ${db}.link_months`),
        weekValues: await number(`SELECT sum(c) FROM ${db}.account_week_values`),
        monthValues: await number(`SELECT sum(c) FROM ${db}.account_month_values`),
        hours: await number(`SELECT sum(c) FROM ${db}.account_hours`),
        subtracted: await number(`SELECT count() FROM ${db}.subtracted_hours`),
      }
    }
    // The feeder builds it (holding the lease) before it copies anything.
    await fed.services.analyticsStore.start()
    await expect.poll(() => store.layoutReady(), { timeout: 30_000, interval: 200 }).toBe(true)
    const built = await held()
    expect(built.clicks).toBeGreaterThan(0)
    // Every derived table holds each kept link click once (six dimension values each); the deleted link's subtraction emptied with it.
    expect(built).toEqual({
      ...built, byValue: built.clicks, dayValues: 6 * built.clicks, hourValues: 6 * built.clicks, weekValues: 6 * built.clicks, monthValues: 6 * built.clicks,
      days: built.clicks, weeks: built.clicks, months: built.clicks, hours: built.clicks, subtracted: 0,
    })
    await expectSameAnswers('the layout built from the clicks', 'account')
    // Built again (by the feeder's next round, holding the lease): the same rows, not twice.
    await clickhouseQuery(`TRUNCATE TABLE ${db}.layout`)
    await expect.poll(async () => (await fed.services.analyticsStore.clickhouse!.feeder.round()) !== null && (await store.layoutReady(true)), { timeout: 60_000, interval: 200 }).toBe(true)
    expect(await held()).toEqual(built)
    expect(await store.buildLayout(async () => true)).toBe(false)
    await expectSameAnswers('the layout built twice', 'account', 'core')
  })
})
