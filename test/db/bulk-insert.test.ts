// Bulk inserts (src/db/bulk-insert.ts) store exactly the rows given, on either database, whatever
// their number (SQLite's chunks of fixed sizes, PostgreSQL's one statement of column arrays) and
// whatever their text; counters add up on conflict; skipped rows are not answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBulkInsert } from '../../src/db/bulk-insert.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'

const VISITOR_COLUMNS = ['day', 'item_type', 'item_id', 'visitor_hash'] as const
const insertVisitors = createBulkInsert('click_visitors', VISITOR_COLUMNS, {
  postgresTypes: { day: 'text', item_type: 'text', item_id: 'integer', visitor_hash: 'text' },
  onConflict: { keys: VISITOR_COLUMNS },
  returning: ['visitor_hash'],
})
const TOTAL_KEYS = ['item_type', 'item_id', 'dimension', 'value'] as const
const addToTotals = createBulkInsert('click_totals', [...TOTAL_KEYS, 'clicks'], {
  postgresTypes: { item_type: 'text', item_id: 'integer', dimension: 'text', value: 'text', clicks: 'bigint' },
  onConflict: { keys: TOTAL_KEYS, add: 'clicks' },
})
const insertClicks = createBulkInsert('clicks', ['account_id', 'item_type', 'item_id', 'created_at', 'referrer_host', 'country', 'is_unique'], {
  postgresTypes: { account_id: 'integer', item_type: 'text', item_id: 'integer', created_at: 'text', referrer_host: 'text', country: 'text', is_unique: 'integer' },
})

// Text a column array or a statement could mangle: quotes, escapes, separators, braces, the word NULL.
const AWKWARD_TEXTS = ['', 'plain', 'with "double" quotes', "it's", 'back\\slash', 'comma, separated', '{braces}', 'NULL', 'null', ' spaced ', 'ünïcødé ✓', 'tab\tand\nnewline']

describe('bulk inserts', () => {
  let database: TestDatabase

  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database.destroy())

  it('stores every row, in order, for counts that fill none, some or all of the chunk sizes', async () => {
    for (const [itemId, count] of [[1, 0], [2, 1], [3, 7], [4, 26], [5, 126], [6, 631]] as const) {
      const rows = Array.from({ length: count }, (_, index) => ({
        account_id: 1,
        item_type: 'link',
        item_id: itemId,
        created_at: `2026-11-25 10:00:${String(index % 60).padStart(2, '0')}`,
        referrer_host: index % 3 === 0 ? null : `host-${index}.example`,
        country: AWKWARD_TEXTS[index % AWKWARD_TEXTS.length]!,
        is_unique: index % 2,
      }))
      expect(await insertClicks(database.db, rows)).toEqual([])
      const stored = await database.db.selectFrom('clicks').select(['account_id', 'item_type', 'item_id', 'created_at', 'referrer_host', 'country', 'is_unique']).where('item_id', '=', itemId).orderBy('id').execute()
      expect(stored).toEqual(rows)
    }
  })

  it('answers the ids the rows took, in order, when asked for `id` (SQLite: from the last insert id of each statement)', async () => {
    const insertAnsweringIds = createBulkInsert('clicks', ['account_id', 'item_type', 'item_id', 'created_at', 'referrer_host', 'country', 'is_unique'], {
      postgresTypes: { account_id: 'integer', item_type: 'text', item_id: 'integer', created_at: 'text', referrer_host: 'text', country: 'text', is_unique: 'integer' },
      returning: ['id'],
    })
    for (const [itemId, count] of [[60, 1], [61, 627], [62, 26]] as const) {
      const rows = Array.from({ length: count }, (_, index) => ({
        account_id: 1, item_type: 'link', item_id: itemId, created_at: '2026-11-25 10:00:00', referrer_host: null, country: `C${index}`, is_unique: 0,
      }))
      // In a transaction, as the click writer inserts, and beside another table's inserts.
      const answered = await database.db.transaction().execute(async (trx) => {
        const ids = await insertAnsweringIds(trx, rows)
        await addToTotals(trx, [{ item_type: 'link', item_id: itemId, dimension: 'country', value: 'x', clicks: 1 }])
        return ids
      })
      const stored = await database.db.selectFrom('clicks').select(['id', 'country']).where('item_id', '=', itemId).orderBy('id').execute()
      expect(answered.map((row) => Number(row.id))).toEqual(stored.map((row) => Number(row.id)))
      expect(stored.map((row) => row.country)).toEqual(rows.map((row) => row.country))
    }
  })

  it('adds counters on conflict and inserts the new ones, inside a transaction', async () => {
    const row = (value: string, clicks: number) => ({ item_type: 'link', item_id: 40, dimension: 'country', value, clicks })
    await addToTotals(database.db, AWKWARD_TEXTS.map((value, index) => row(value, index + 1)))
    await database.db.transaction().execute((trx) => addToTotals(trx, [row('plain', 10), row('NULL', 100), row('new', 7)]))
    const stored = await database.db.selectFrom('click_totals').select(['value', 'clicks']).where('item_id', '=', 40).execute()
    const expected = new Map(AWKWARD_TEXTS.map((value, index) => [value, index + 1]))
    expected.set('plain', 2 + 10)
    expected.set('NULL', 8 + 100)
    expected.set('new', 7)
    expect(new Map(stored.map(({ value, clicks }) => [value, Number(clicks)]))).toEqual(expected)
  })

  it('skips rows that exist and answers only those it inserted', async () => {
    const visitor = (hash: string) => ({ day: '2026-11-25', item_type: 'qr', item_id: 9, visitor_hash: hash })
    const first = await insertVisitors(database.db, ['a', 'b', 'c'].map(visitor))
    expect(first.map((row) => row.visitor_hash).sort()).toEqual(['a', 'b', 'c'])
    const many = Array.from({ length: 130 }, (_, index) => `v${index}`)
    const second = await insertVisitors(database.db, ['b', ...many, 'c', 'd'].map(visitor))
    expect(second.map((row) => row.visitor_hash).sort()).toEqual([...many, 'd'].sort())
    expect(await insertVisitors(database.db, ['a', 'd', 'v5'].map(visitor))).toEqual([])
  })

  it('refuses a row without a value for a column rather than writing a default', async () => {
    const incomplete = { account_id: 1, item_type: 'link', item_id: 50, created_at: '2026-11-25 10:00:00', referrer_host: null, country: 'DE' } as unknown as Parameters<typeof insertClicks>[1][number]
    await expect(insertClicks(database.db, [incomplete])).rejects.toThrow('no value for is_unique')
    expect(await database.db.selectFrom('clicks').select('id').where('item_id', '=', 50).execute()).toEqual([])
  })
})
