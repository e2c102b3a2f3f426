// The throttle factory on the real shared stores, each reached through a TCP proxy the test cuts
// and restores: counts land in the store, an instance counts alone while it is away (said once),
// and the first count after it returns is the store's again, without a restart.
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { chooseCounterStore, createThrottleFactory, type StoreState } from '../../src/http/throttle.js'
import { connectRedis } from '../../src/redis/connection.js'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/test-database.js'
import { eventually } from '../helpers/eventually.js'

const redisUrl = process.env.TEST_REDIS_URL


describe.skipIf(testDialect !== 'postgres')('throttle factory on PostgreSQL', () => {
  let database: TestDatabase
  let proxy: TcpProxy
  let viaProxy: DatabaseHandle

  beforeAll(async () => {
    database = await createTestDatabase()
    // The test's database, reached through a proxy the test can cut.
    const target = new URL(database.url)
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
    target.hostname = '127.0.0.1'
    target.port = String(proxy.port)
    viaProxy = openDatabase(target.toString(), { poolMax: 2 })
  })
  afterAll(async () => {
    await viaProxy?.close()
    await proxy?.close()
    await database?.destroy()
  })

  // rate_limits is rate-limiter-flexible's table, outside the Kysely schema.
  const storedPoints = async (key: string) => (await sql<{ points: number }>`select points from rate_limits where key = ${key}`.execute(database.db)).rows[0]?.points

  it('counts in the rate_limits table, alone while PostgreSQL is away, and in the table again once it is back', async () => {
    const reports: StoreState[] = []
    const throttles = createThrottleFactory({ store: chooseCounterStore({ database: viaProxy }), onStoreStateChange: (state) => reports.push(state) })
    const counter = throttles.counter({ name: 'test:outage', points: 3, windowSeconds: 60 })

    expect(await counter.consume('10.0.0.1')).toMatchObject({ allowed: true, consumed: 1 })
    expect(await storedPoints('test:outage:10.0.0.1')).toBe(1)

    await proxy.cut()
    for (let attempt = 1; attempt <= 3; attempt += 1) expect(await counter.consume('10.0.0.1')).toMatchObject({ allowed: true, consumed: attempt })
    expect(await counter.consume('10.0.0.1')).toMatchObject({ allowed: false })
    expect(reports).toEqual(['failed'])
    expect(await storedPoints('test:outage:10.0.0.1')).toBe(1)

    await proxy.restore()
    expect(await counter.consume('10.0.0.1')).toMatchObject({ allowed: true, consumed: 2 })
    expect(reports).toEqual(['failed', 'recovered'])
    expect(await storedPoints('test:outage:10.0.0.1')).toBe(2)
  })

  it('keeps a key longer than the table\'s column in the table, by its digest', async () => {
    const reports: StoreState[] = []
    const counter = createThrottleFactory({ store: chooseCounterStore({ database }), onStoreStateChange: (state) => reports.push(state) })
      .counter({ name: 'signin:subject', points: 1, windowSeconds: 60 })
    const login = `login:${'a'.repeat(250)}@example.com`
    expect((await counter.consume(login)).allowed).toBe(true)
    expect((await counter.consume(login)).allowed).toBe(false)
    expect(reports).toEqual([])
    const { rows } = await sql<{ key: string }>`select key from rate_limits where key like 'signin:subject:sha256:%'`.execute(database.db)
    expect(rows).toHaveLength(1)
  })
})

describe.skipIf(!redisUrl)('throttle factory on Redis', () => {
  const prefix = `lwtest:${randomBytes(4).toString('hex')}:`
  let proxy: TcpProxy
  let redis: Redis
  let observer: Redis

  beforeAll(async () => {
    const target = new URL(redisUrl!)
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379))
    redis = connectRedis(`redis://127.0.0.1:${proxy.port}`, prefix)
    redis.on('error', () => {})
    observer = new Redis(redisUrl!)
    await eventually(() => redis.status, (status) => status === 'ready')
  })
  afterAll(async () => {
    const keys = await observer.keys(`${prefix}*`)
    if (keys.length) await observer.del(...keys)
    observer.disconnect()
    redis.disconnect()
    await proxy.close()
  })

  it('counts in Redis, alone while Redis is away, and in Redis again once it is back', async () => {
    const reports: StoreState[] = []
    const throttles = createThrottleFactory({ store: chooseCounterStore({ redis }), onStoreStateChange: (state) => reports.push(state) })
    const counter = throttles.counter({ name: 'throttle:contact:client', points: 3, windowSeconds: 60 })
    const stored = `${prefix}throttle:contact:client:10.0.0.2`

    expect(await counter.consume('10.0.0.2')).toMatchObject({ allowed: true, consumed: 1 })
    expect(await observer.get(stored)).toBe('1')

    await proxy.cut()
    for (let attempt = 1; attempt <= 3; attempt += 1) expect(await counter.consume('10.0.0.2')).toMatchObject({ allowed: true, consumed: attempt })
    expect(await counter.consume('10.0.0.2')).toMatchObject({ allowed: false })
    expect(reports).toEqual(['failed'])

    await proxy.restore()
    await eventually(() => redis.status, (status) => status === 'ready')
    expect(await counter.consume('10.0.0.2')).toMatchObject({ allowed: true, consumed: 2 })
    expect(reports).toEqual(['failed', 'recovered'])
    expect(await observer.get(stored)).toBe('2')
  })
})
