// The list version the database counts (migration 008, ADR 012): it moves with every change a link
// list shows and with nothing else, per account; and on PostgreSQL, where its triggers run at commit,
// click writers of several instances and API writes touching the same links at once never deadlock.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClickWriter, type PendingClick } from '../../src/analytics/click-writer.js'
import { nowTimestamp } from '../../src/core/time.js'
import { createLinkRepository } from '../../src/modules/links/link.repository.js'
import { attachPixelRows, createAccount, insertLinkRow, insertPixelRow, servicesFor, type WithServices } from '../helpers/factories.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/test-database.js'
import { fixedSecretHasher } from '../helpers/visitor-hasher.js'

const BROWSER = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0'

describe('link list versions', () => {
  let database: TestDatabase
  let context: WithServices
  let versionOf: (accountId: number) => Promise<number>

  beforeAll(async () => {
    database = await createTestDatabase()
    context = servicesFor(database)
    const links = createLinkRepository(database.db)
    versionOf = (accountId) => links.listVersion(accountId)
  })
  afterAll(() => database.destroy())

  function clicksOf(accountId: number, linkIds: number[], count: number): PendingClick[] {
    return Array.from({ length: count }, (_, index) => ({
      accountId, itemType: 'link', itemId: linkIds[index % linkIds.length]!, createdAt: nowTimestamp(),
      ip: `203.0.113.${index % 250}`, userAgent: BROWSER, referrerHost: null, language: 'en',
    }))
  }

  it('moves with a link written, its counters, its pixels and its deletion, and only for its account', async () => {
    const owner = await createAccount(context)
    const other = await createAccount(context)
    expect(await versionOf(owner.id)).toBe(0)
    const steps: [string, () => Promise<unknown>][] = [
      ['a link inserted', () => insertLinkRow(database.db, owner.id)],
      ['a link updated', () => database.db.updateTable('links').set({ title: 'New title' }).where('account_id', '=', owner.id).execute()],
      ['clicks counted', async () => {
        const [link] = await database.db.selectFrom('links').select('id').where('account_id', '=', owner.id).execute()
        await createClickWriter({ db: database.db, visitors: fixedSecretHasher() })(clicksOf(owner.id, [link!.id], 3))
      }],
      ['a pixel attached', async () => {
        const [link] = await database.db.selectFrom('links').select('id').where('account_id', '=', owner.id).execute()
        await attachPixelRows(database.db, link!.id, [await insertPixelRow(database.db, owner.id, 'gtmpixel', 'GTM-ABC123')])
      }],
      ['a pixel deleted (its attachments cascade)', () => database.db.deleteFrom('pixels').where('account_id', '=', owner.id).execute()],
      ['a link deleted', () => database.db.deleteFrom('links').where('account_id', '=', owner.id).execute()],
    ]
    let last = await versionOf(owner.id)
    for (const [step, change] of steps) {
      const othersBefore = await versionOf(other.id)
      await change()
      const now = await versionOf(owner.id)
      expect(now, step).toBeGreaterThan(last)
      expect(await versionOf(other.id), `${step}: the other account`).toBe(othersBefore)
      last = now
    }
    // Changes a list does not show leave it alone.
    await database.db.updateTable('accounts').set({ email: 'renamed@example.com' }).where('id', '=', owner.id).execute()
    await database.db.insertInto('settings').values({ key: 'unrelated', value: 'x' }).execute()
    expect(await versionOf(owner.id)).toBe(last)
  })

  it('lets click writers of several instances and API writes change the same links at once without a deadlock', async () => {
    const owner = await createAccount(context)
    const ids = [] as number[]
    for (let index = 0; index < 3; index += 1) ids.push((await insertLinkRow(database.db, owner.id)).id)
    const pixel = await insertPixelRow(database.db, owner.id, 'gtmpixel', 'GTM-XYZ789')
    const before = await versionOf(owner.id)
    // Each writer stands for an instance: its own queue, batches in its own transactions.
    const writers = [0, 1, 2].map(() => createClickWriter({ db: database.db, visitors: fixedSecretHasher() }))
    const rounds = 12
    const work: Promise<unknown>[] = []
    let pixelChanges: Promise<unknown> = Promise.resolve()
    for (let round = 0; round < rounds; round += 1) {
      // Batches touching all links, the last two and the last one, in every order of arrival.
      work.push(writers[0]!(clicksOf(owner.id, ids, 30)))
      work.push(writers[1]!(clicksOf(owner.id, ids.slice(1), 20)))
      work.push(writers[2]!(clicksOf(owner.id, ids.slice(2), 10)))
      // API writes, each in its own transaction: a link row, and a link's pixels replaced (one
      // replacement at a time: two at once would insert the same pixel twice, which is refused).
      work.push(database.db.updateTable('links').set({ title: `Round ${round}` }).where('id', '=', ids[round % ids.length]!).execute())
      pixelChanges = pixelChanges.then(() => database.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('link_pixels').where('link_id', '=', ids[1]!).execute()
        await trx.insertInto('link_pixels').values({ link_id: ids[1]!, pixel_id: pixel }).execute()
      }))
    }
    work.push(pixelChanges)
    const outcomes = await Promise.allSettled(work)
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([])
    const counted = await database.db.selectFrom('links').select(['id', 'clicks']).where('account_id', '=', owner.id).orderBy('id').execute()
    expect(counted.map((row) => Number(row.clicks))).toEqual([rounds * 10, rounds * (10 + 10), rounds * (10 + 10 + 10)])
    expect(await versionOf(owner.id)).toBeGreaterThan(before)
  })

  // The interleaving that deadlocks with triggers run at once: a click writer updates link A (and
  // would take the version row), an API write updates link B, then the writer waits for B. Run at
  // commit, the version row is taken by each after its link rows, and both commit.
  it.runIf(testDialect === 'postgres')('lets a click batch and an API write lock two links in turn and both commit (PostgreSQL)', async () => {
    const owner = await createAccount(context)
    const first = (await insertLinkRow(database.db, owner.id)).id
    const second = (await insertLinkRow(database.db, owner.id)).id
    const before = await versionOf(owner.id)
    // The writer's update of the second link, waiting for the API's lock on it (seen by the server, not assumed after a pause).
    const writerWaits = async () => Number((await sql<{ waiting: number }>`select count(*) as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like 'update links set clicks = clicks + 1 where id = %'`.execute(database.db)).rows[0]!.waiting)
    await database.db.connection().execute((writer) => database.db.connection().execute(async (api) => {
      await sql`begin`.execute(writer)
      await sql`update links set clicks = clicks + 1 where id = ${first}`.execute(writer)
      await sql`begin`.execute(api)
      const apiUpdate = sql`update links set title = 'Edited' where id = ${second}`.execute(api)
      await apiUpdate
      const writerUpdate = sql`update links set clicks = clicks + 1 where id = ${second}`.execute(writer)
      writerUpdate.catch(() => undefined)
      await expect.poll(writerWaits).toBe(1)
      const outcomes = await Promise.allSettled([
        apiUpdate.then(() => sql`commit`.execute(api)),
        writerUpdate.then(() => sql`commit`.execute(writer)),
      ])
      await Promise.allSettled([sql`rollback`.execute(api), sql`rollback`.execute(writer)])
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([])
    }))
    const rows = await database.db.selectFrom('links').select(['clicks', 'title']).where('id', 'in', [first, second]).orderBy('id').execute()
    expect(rows.map((row) => [Number(row.clicks), row.title])).toEqual([[1, null], [1, 'Edited']])
    expect(await versionOf(owner.id)).toBeGreaterThan(before)
  })
})
