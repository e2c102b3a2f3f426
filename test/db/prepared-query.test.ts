// Prepared queries (src/db/prepared-query.ts) answer what the same query built anew answers, on
// either database: placeholders where values go, constants kept, values in any order.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareQuery, prepareStatement } from '../../src/db/prepared-query.js'
import { nowTimestamp } from '../../src/core/time.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'

describe('prepared queries', () => {
  let database: TestDatabase

  beforeAll(async () => {
    database = await createTestDatabase()
    const now = nowTimestamp()
    await database.db.insertInto('settings').values([
      { key: 'prepared:a', value: 'Alpha' },
      { key: 'prepared:b', value: 'beta' },
      { key: 'prepared:c', value: 'Gamma' },
      { key: 'other:d', value: now },
    ]).execute()
  })
  afterAll(() => database.destroy())

  type Values = { prefix: string; folded: string; limit: number; offset: number }
  const build = (db: TestDatabase['db'], values: Values) =>
    db.selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'like', values.prefix)
      .where((eb) => eb.or([sql<boolean>`lower(${sql.ref('value')}) <> ${values.folded}`, eb('key', '=', 'prepared:b')]))
      .orderBy('key', 'desc')
      .limit(values.limit)
      .offset(values.offset)

  it('answers the rows the built query answers, run after run with new values', async () => {
    const query = prepareQuery(database.db, (values: Values) => build(database.db, values))
    for (const values of [
      { prefix: 'prepared:%', folded: 'alpha', limit: 10, offset: 0 },
      { prefix: 'prepared:%', folded: 'gamma', limit: 1, offset: 1 },
      { offset: 0, limit: 5, folded: 'nothing', prefix: '%' },
      { prefix: 'none:%', folded: 'alpha', limit: 10, offset: 0 },
    ]) {
      expect(await query(values)).toEqual(await build(database.db, values).execute())
    }
    expect(await query({ prefix: 'prepared:%', folded: 'alpha', limit: 10, offset: 0 })).toEqual([
      { key: 'prepared:c', value: 'Gamma' },
      { key: 'prepared:b', value: 'beta' },
    ])
  })

  it('builds the query once, on the first run', async () => {
    let builds = 0
    const query = prepareQuery(database.db, (values: Values) => {
      builds += 1
      return build(database.db, values)
    })
    expect(builds).toBe(0)
    await query({ prefix: '%', folded: '', limit: 1, offset: 0 })
    await query({ prefix: 'other:%', folded: '', limit: 1, offset: 0 })
    expect(builds).toBe(1)
  })

  it('prepares a statement once and runs it on whichever database or transaction it is handed', async () => {
    let builds = 0
    const rename = prepareStatement((db, values: { key: string; value: string }) => {
      builds += 1
      return db.updateTable('settings').set({ value: values.value }).where('key', '=', values.key)
    })
    const valueOf = async (key: string) => (await database.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value
    await rename(database.db, { key: 'prepared:a', value: 'Alef' })
    expect(await valueOf('prepared:a')).toBe('Alef')
    // Inside a transaction that is rolled back, the change goes with it.
    await expect(database.db.transaction().execute(async (trx) => {
      await rename(trx, { key: 'prepared:b', value: 'Bet' })
      expect(await trx.selectFrom('settings').select('value').where('key', '=', 'prepared:b').executeTakeFirstOrThrow()).toEqual({ value: 'Bet' })
      throw new Error('roll back')
    })).rejects.toThrow('roll back')
    expect(await valueOf('prepared:b')).toBe('beta')
    // A second database of the same dialect reuses the statement.
    const other = await createTestDatabase()
    try {
      await other.db.insertInto('settings').values({ key: 'prepared:a', value: 'elsewhere' }).execute()
      await rename(other.db, { key: 'prepared:a', value: 'Alpha again' })
      expect((await other.db.selectFrom('settings').select('value').where('key', '=', 'prepared:a').executeTakeFirstOrThrow()).value).toBe('Alpha again')
      expect(await valueOf('prepared:a')).toBe('Alef')
    } finally {
      await other.destroy()
    }
    expect(builds).toBe(1)
  })
})
