// Prepared queries (src/db/prepared-query.ts) answer what the same query built anew answers, on
// either database: placeholders where values go, constants kept, values in any order.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareQuery } from '../../src/db/prepared-query.js'
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
})
