// The ClickHouse feeder copies every committed click exactly once (issue 40, ADR 035,
// analytics/clickhouse-feeder.ts): a feeder process killed with SIGKILL inside a batch (written
// to ClickHouse, its cursor not moved) or at random moments loses and doubles nothing once another
// feeder takes over after its lease; with two instances on PostgreSQL one feeds, the other takes
// over when it dies, with clicks recorded meanwhile; a ClickHouse fed for the first time leaves out
// the clicks of links deleted before the journal was pruned (ClickHouse away and back: see
// test/modules/statistics/clickhouse-statistics.routes.test.ts).
// Every insert into `clicks` is also logged by a plain MergeTree table of the test's own
// (`inserted_ids`, fed by a materialized view): a click written twice shows there even after
// ClickHouse's ReplacingMergeTree has merged the copy away.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createClickhouseFeeder } from '../../src/analytics/clickhouse-feeder.js'
import { openClickhouseStore, type ClickhouseStore } from '../../src/analytics/clickhouse-store.js'
import { writeEnrichedClicks } from '../../src/analytics/click-writer.js'
import { DAY_MS, timeOfStored } from '../../src/core/time.js'
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { clickhouseQuery, clickhouseTarget, describeWithClickhouse, dropClickhouseDatabase } from '../helpers/clickhouse.js'
import { actingAs, createAccount, createLink, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'
import { createTestDatabase, testDialect } from '../helpers/test-database.js'
import { spreadClicks, type Target } from './engine-parity-support.js'

const FIXTURE = 'test/analytics/clickhouse-feeder.fixture.ts'
const LEASE_MS = 1_500

describeWithClickhouse('the ClickHouse feeder, killed and taken over', () => {
  const target = clickhouseTarget('feed')
  /** A database a feeder process can open too: PostgreSQL's test database, or an SQLite file. */
  let database: DatabaseHandle & { url: string; destroy(): Promise<void> }
  let made: WithServices
  let owner: TestAccount
  let targets: Target[]
  let store: ClickhouseStore
  const children: ChildProcess[] = []
  const db = () => `\`${target.database}\``

  function startFeeder(env: Record<string, string> = {}): { child: ChildProcess; said: (line: string) => Promise<void> } {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: { ...process.env, DATABASE_URL: database.url, CLICKHOUSE_URL: target.url, CLICKHOUSE_DATABASE: target.database, PAGE: '400', LEASE_MS: String(LEASE_MS), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(child)
    let out = ''
    const waiting: Array<{ line: string; resolve: () => void }> = []
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      for (const wait of [...waiting]) if (out.split('\n').includes(wait.line)) wait.resolve()
    })
    let errors = ''
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    const said = (line: string) => new Promise<void>((resolve, reject) => {
      if (out.split('\n').includes(line)) return resolve()
      const timer = setTimeout(() => reject(new Error(`the feeder did not say ${line} (stderr: ${errors.slice(-1500)})`)), 60_000)
      waiting.push({ line, resolve: () => { clearTimeout(timer); resolve() } })
    })
    return { child, said }
  }

  async function kill(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill('SIGKILL')
    await exited
  }

  async function clicksInDatabase(): Promise<number> {
    return Number((await database.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow()).count)
  }

  /** Inserts logged (every copy), distinct ids logged, and the ids the database has that ClickHouse lacks. */
  async function tally(): Promise<{ inserted: number; distinct: number; missing: number }> {
    const [inserted, distinct] = (await clickhouseQuery(`SELECT count(), uniqExact(id) FROM ${db()}.inserted_ids`)).trim().split('\t').map(Number)
    const ids = (await database.db.selectFrom('clicks').select('id').execute()).map((row) => Number(row.id))
    const held = await store.heldOf(ids.sort((a, b) => a - b))
    return { inserted: inserted!, distinct: distinct!, missing: ids.length - held.size }
  }

  /** A feeder in this process, run until it has copied everything (its lease taken once the dead one's expired). */
  async function finishHere(): Promise<void> {
    const feeder = createClickhouseFeeder({ db: database.db, store, retentionDays: null, leaseMs: LEASE_MS, pageSize: 400 })
    await expect.poll(async () => (await feeder.round()) !== null && (await feeder.round()) === 0, { timeout: 20_000, interval: 200 }).toBe(true)
    await feeder.stop()
  }

  async function write(seed: number, count: number): Promise<void> {
    const clicks = spreadClicks(seed, count, Date.now() - 3 * DAY_MS, Date.now(), targets)
    for (let start = 0; start < clicks.length; start += 1_000) {
      await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, clicks.slice(start, start + 1_000)))
    }
  }

  beforeAll(async () => {
    if (testDialect === 'postgres') {
      database = await createTestDatabase()
    } else {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-feeder-'))
      const url = `file:${path.join(folder, 'linkwell.db')}`
      const handle = openDatabase(url)
      await migrateToLatest(handle)
      database = { ...handle, url, destroy: async () => { await handle.close(); fs.rmSync(folder, { recursive: true, force: true }) } }
    }
    made = servicesFor(database)
    owner = await createAccount(made)
    const links = [await createLink(made, owner), await createLink(made, owner)]
    targets = links.map((link, index) => ({ accountId: owner.id, itemType: 'link' as const, itemId: link.id, weight: index + 1 }))
    store = await openClickhouseStore(target)
    await store.ensureSchema()
    await clickhouseQuery(`CREATE TABLE ${db()}.inserted_ids (id UInt64) ENGINE = MergeTree ORDER BY id`)
    await clickhouseQuery(`CREATE MATERIALIZED VIEW ${db()}.inserted_ids_feed TO ${db()}.inserted_ids AS SELECT id FROM ${db()}.clicks`)
  })

  afterAll(async () => {
    for (const child of children) await kill(child)
    await store?.close()
    await made?.services.close()
    await database?.destroy()
    await dropClickhouseDatabase(target.database)
  })

  it('a feeder killed after a batch is written and before its cursor moves: the next one writes it once', async () => {
    await write(1, 3_000)
    const { child, said } = startFeeder({ HANG_AFTER_INSERT: '3' })
    await said('inserted')
    await kill(child)
    // Three batches written, the cursor after the second.
    expect((await tally()).inserted).toBe(1_200)
    const cursor = Number((await database.db.selectFrom('clickhouse_feed').select('last_id').executeTakeFirstOrThrow()).last_id)
    const ids = (await database.db.selectFrom('clicks').select('id').orderBy('id').execute()).map((row) => Number(row.id))
    expect(cursor).toBe(ids[799])
    await finishHere()
    expect(await tally()).toEqual({ inserted: 3_000, distinct: 3_000, missing: 0 })
  })

  it('feeders killed at random moments, one after the other, lose and double nothing', async () => {
    await write(2, 6_000)
    for (const delay of [150, 400, 900]) {
      const { child } = startFeeder({ PAGE: '300' })
      await new Promise((resolve) => setTimeout(resolve, delay + Math.floor(Math.random() * 200)))
      await kill(child)
      // Not before its lease has ended.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS))
    }
    await finishHere()
    const total = await clicksInDatabase()
    expect(total).toBe(9_000)
    expect(await tally()).toEqual({ inserted: total, distinct: total, missing: 0 })
  })

  it.runIf(testDialect === 'postgres')('two instances on PostgreSQL: one feeds, the other takes over within its lease when it dies', async () => {
    const first = startFeeder({ PAGE: '500' })
    const second = startFeeder({ PAGE: '500' })
    await write(3, 2_000)
    const fed = async () => (await tally()).missing === 0
    await expect.poll(fed, { timeout: 20_000, interval: 200 }).toBe(true)
    const holder = (await database.db.selectFrom('clickhouse_feed').select('holder').executeTakeFirstOrThrow()).holder
    expect(holder).not.toBeNull()
    // The holder dies (whichever it is: the one that said `holding` first took the lease).
    const [holding, standby] = await Promise.race([first.said('holding').then(() => [first, second] as const), second.said('holding').then(() => [second, first] as const)])
    await kill(holding.child)
    const dead = await database.db.selectFrom('clickhouse_feed').select(['holder', 'lease_until']).executeTakeFirstOrThrow()
    await write(4, 1_500)
    await expect.poll(fed, { timeout: 20_000, interval: 100 }).toBe(true)
    // Taken over by the other, and only once the dead holder's lease had ended (its renewals since
    // are stamped after it); when, the lease's own test below tells with a clock of its own.
    const taken = await database.db.selectFrom('clickhouse_feed').select(['holder', 'lease_until']).executeTakeFirstOrThrow()
    expect(taken.holder).not.toBe(holder)
    expect(taken.holder).not.toBe(dead.holder)
    expect(timeOfStored(taken.lease_until!) - LEASE_MS).toBeGreaterThanOrEqual(timeOfStored(dead.lease_until!))
    await kill(standby.child)
    const total = await clicksInDatabase()
    expect(await tally()).toEqual({ inserted: total, distinct: total, missing: 0 })
  })

  it('the lease, by a clock of its own: kept by its holder, refused to another until it ends, then taken, and the old holder fenced out', async () => {
    let time = Date.now() + 3_600_000
    const clock = () => new Date(time)
    const first = createClickhouseFeeder({ db: database.db, store, retentionDays: null, leaseMs: 30_000, now: clock })
    const second = createClickhouseFeeder({ db: database.db, store, retentionDays: null, leaseMs: 30_000, now: clock })
    try {
      expect(await first.round()).not.toBeNull()
      expect(first.holding).toBe(true)
      expect(await second.round()).toBeNull()
      const lease = async () => (await database.db.selectFrom('clickhouse_feed').select(['holder', 'lease_until']).executeTakeFirstOrThrow())
      expect((await lease()).holder).toBe(first.id)
      expect(timeOfStored((await lease()).lease_until!)).toBe(time + 30_000)
      // Renewed by each round of its holder.
      time += 20_000
      expect(await first.round()).not.toBeNull()
      expect(timeOfStored((await lease()).lease_until!)).toBe(time + 30_000)
      // The holder stops renewing (dies): the other is refused up to the lease's last millisecond…
      time += 30_000
      expect(await second.round()).toBeNull()
      // …and takes it after: within the lease and a standby poll (30 s + 10 s) of the last renewal.
      time += 1
      await write(5, 300)
      expect(await second.round()).toBe(300)
      expect((await lease()).holder).toBe(second.id)
      // The old holder, back, is refused: its round does nothing, its cursor's moves are fenced.
      expect(await first.round()).toBeNull()
      expect(first.holding).toBe(false)
      expect(await tally()).toMatchObject({ missing: 0 })
    } finally {
      // Let the lease (an hour ahead of the real clock) go for the tests after this one.
      await database.db.updateTable('clickhouse_feed').set({ holder: null, lease_until: null }).where('id', '=', 1).execute()
    }
  })

  it('before an answer: the holder copies what was just written; an instance refused the lease asks again only after its standby poll', async () => {
    let time = Date.now() + 7_200_000
    const clock = () => new Date(time)
    const options = { db: database.db, store, retentionDays: null, leaseMs: 30_000, standbyPollMs: 60_000, now: clock }
    const first = createClickhouseFeeder(options)
    const second = createClickhouseFeeder(options)
    const holder = async () => (await database.db.selectFrom('clickhouse_feed').select('holder').executeTakeFirstOrThrow()).holder
    try {
      expect(await first.beforeAnswer()).not.toBeNull()
      await write(6, 40)
      expect(await first.beforeAnswer()).toBe(40)
      // Refused: the lease is the first's.
      expect(await second.beforeAnswer()).toBeNull()
      // The first dies; its lease ends, but within a standby poll of its refusal the second does not ask again.
      time += 31_000
      expect(await second.beforeAnswer()).toBeNull()
      expect(await holder()).toBe(first.id)
      // After the standby poll it asks, and takes the lease with what was written meanwhile.
      time += 30_000
      await write(7, 25)
      expect(await second.beforeAnswer()).toBe(25)
      expect(await holder()).toBe(second.id)
      expect(await tally()).toMatchObject({ missing: 0 })
    } finally {
      await database.db.updateTable('clickhouse_feed').set({ holder: null, lease_until: null }).where('id', '=', 1).execute()
    }
  })

  it('copies text with tabs, line breaks, backslashes and quotes as it is (the TabSeparated insert)', async () => {
    const odd = ['tab\there', 'line\nbreak\r', 'back\\slash \\t', "quote's \"x\"", 'ünïcødé 🙂']
    const [click] = spreadClicks(5, 1, Date.now() - DAY_MS, Date.now(), targets)
    const clicks = odd.map((text, index) => ({ ...click!, visitorHash: `odd-${index}`, referrerHost: text, language: text, country: index === 0 ? null : text }))
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, clicks))
    await finishHere()
    const ids = (await database.db.selectFrom('clicks').select('id').where('visitor_hash', 'like', 'odd-%').orderBy('id').execute()).map((row) => Number(row.id))
    const copied = (await clickhouseQuery(`SELECT id, referrer, language, country FROM ${db()}.clicks WHERE id IN (${ids.join(', ')}) ORDER BY id FORMAT JSONEachRow`))
      .trim().split('\n').map((line) => JSON.parse(line) as { id: string; referrer: string; language: string; country: string })
    expect(copied.map((row) => [Number(row.id), row.referrer, row.language, row.country])).toEqual(ids.map((id, index) => [id, odd[index], odd[index], index === 0 ? '' : odd[index]]))
  })

  it('a ClickHouse fed for the first time leaves out the clicks of links deleted before, when the journal no longer tells (audit prune)', async () => {
    const gone = await createLink(made, owner)
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, spreadClicks(5, 50, Date.now() - DAY_MS, Date.now(), [{ accountId: owner.id, itemType: 'link', itemId: gone.id, weight: 1 }])))
    await made.services.links.deleteLink(await actingAs(made, owner), gone.id)
    await database.db.deleteFrom('audit_log').where('action', '=', 'link.deleted').execute()
    // A new ClickHouse database, and the feeder's place as before any copy.
    const fresh = clickhouseTarget('feedfresh')
    const freshStore = await openClickhouseStore(fresh)
    await database.db.updateTable('clickhouse_feed').set({ holder: null, lease_until: null, last_id: 0, gaps: '[]', audit_id: 0 }).where('id', '=', 1).execute()
    try {
      const feeder = createClickhouseFeeder({ db: database.db, store: freshStore, retentionDays: null, leaseMs: LEASE_MS })
      await expect.poll(async () => (await feeder.round()) !== null && (await feeder.round()) === 0, { timeout: 20_000, interval: 200 }).toBe(true)
      await feeder.stop()
      const count = async (where: string) => Number((await clickhouseQuery(`SELECT count() FROM \`${fresh.database}\`.clicks WHERE ${where}`)).trim())
      expect(await count(`item_id = ${gone.id}`)).toBe(0)
      expect(await count('1')).toBe((await clicksInDatabase()) - 50)
      expect((await freshStore.deletedLinks()).has(gone.id)).toBe(true)
    } finally {
      await freshStore.close()
      await dropClickhouseDatabase(fresh.database)
    }
  })
})
