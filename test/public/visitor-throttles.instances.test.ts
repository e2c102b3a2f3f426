// Two instances on one PostgreSQL database share the visitors' throttles: without Redis the
// counters live in PostgreSQL, with Redis in Redis (issue 19: without Redis each instance used to
// allow its own five guesses). Two instances need a database both reach, so this runs on the
// PostgreSQL run only; on SQLite one process serves alone and counts in memory.
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import type { App } from '../../src/http/app-instance.js'
import { connectRedis } from '../../src/redis/connection.js'
import type { Services } from '../../src/services.js'
import { createLink, insertLinkRow, insertOverlayRow } from '../helpers/factories.js'
import { expectPage } from '../helpers/pages.js'
import { buildAppOn, createAccount, PUBLIC_URL, type TestAccount } from '../helpers/test-app.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/test-database.js'
import { visit } from './redirect-test-support.js'

const redisUrl = process.env.TEST_REDIS_URL

interface Instance {
  app: App
  services: Services
}

const STORES = [
  { store: 'PostgreSQL, without Redis', redis: false, skip: false },
  { store: 'Redis', redis: true, skip: !redisUrl },
]

describe.skipIf(testDialect !== 'postgres').each(STORES)('two instances counting in $store', ({ redis: withRedis, skip }) => {
  let database: TestDatabase
  let secondHandle: DatabaseHandle
  const connections: Redis[] = []
  let first: Instance
  let second: Instance
  let owner: TestAccount
  const prefix = `lwtest:${randomBytes(4).toString('hex')}:`

  beforeAll(async () => {
    if (skip) return
    database = await createTestDatabase()
    // The second instance's own pool on the same schema, as another process would have.
    secondHandle = openDatabase(database.url, { poolMax: 3 })
    const config = loadConfig({ PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000', KEY_CACHE_MS: '0' })
    const redisFor = async () => {
      if (!withRedis) return undefined
      const redis = connectRedis(redisUrl!, prefix)
      connections.push(redis)
      await new Promise((resolve) => redis.once('ready', resolve))
      return redis
    }
    first = await buildAppOn(database, config, { redis: await redisFor() })
    second = await buildAppOn(secondHandle, config, { redis: await redisFor() })
    owner = await createAccount(first)
  })
  afterAll(async () => {
    await first?.app.close()
    await second?.app.close()
    await secondHandle?.close()
    connections.forEach((redis) => redis.disconnect())
    if (withRedis && !skip) {
      const observer = new Redis(redisUrl!)
      const keys = await observer.keys(`${prefix}*`)
      if (keys.length > 0) await observer.del(...keys)
      observer.disconnect()
    }
    await database?.destroy()
  })

  it.skipIf(skip)('refuses the sixth guess at a link\'s password on instance B after five wrong ones on A', async () => {
    const locked = await createLink(first, owner, { password: 'right one', url: 'https://example.com/locked' })
    const guesser = '10.7.0.1'
    for (let guess = 0; guess < 5; guess += 1) {
      const response = await visit(first.app, `/${locked.alias}`, { form: { password: `guess ${guess}` }, remoteAddress: guesser })
      expect(response.statusCode, `guess ${guess + 1} on A`).toBe(401)
    }
    // Even the right password: the address is blocked on every instance.
    const sixth = await visit(second.app, `/${locked.alias}`, { form: { password: 'right one' }, remoteAddress: guesser })
    expectPage(sixth, 429, 'Too many attempts', 'Please wait')
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect((await visit(first.app, `/${locked.alias}`, { form: { password: 'right one' }, remoteAddress: guesser })).statusCode).toBe(429)
    // Another address still gets in, on either instance.
    const visitor = await visit(second.app, `/${locked.alias}`, { form: { password: 'right one' }, remoteAddress: '10.7.0.2' })
    expect(visitor.statusCode).toBe(302)
    expect(visitor.headers.location).toBe('https://example.com/locked')
    if (withRedis) {
      const observer = new Redis(redisUrl!)
      expect(await observer.exists(`${prefix}throttle:link-password:client:${guesser}`)).toBe(1)
      observer.disconnect()
    } else {
      // rate_limits is rate-limiter-flexible's table, outside the Kysely schema.
      const counted = await sql<{ points: number }>`select points from rate_limits where key = ${`throttle:link-password:client:${guesser}`}`.execute(database.db)
      expect(counted.rows[0]?.points).toBeGreaterThan(5)
    }
  })

  it.skipIf(skip)('takes three contact messages from one address across both instances, then refuses on either', async () => {
    const overlayId = await insertOverlayRow(database.db, owner.id, 'contact', { title: 'Talk to us', email: 'owner@example.com' })
    const link = await insertLinkRow(database.db, owner.id, { type: 'overlay', overlay_id: overlayId })
    const send = (instance: Instance, message: string, remoteAddress = '10.8.0.1') =>
      visit(instance.app, `/${link.alias}/contact`, { form: { email: 'spam@example.com', message }, remoteAddress })
    const statuses = [
      (await send(first, 'one')).statusCode,
      (await send(second, 'two')).statusCode,
      (await send(first, 'three')).statusCode,
      (await send(second, 'four')).statusCode,
      (await send(first, 'five')).statusCode,
    ]
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    const stored = await database.db.selectFrom('contacts').select('id').where('link_id', '=', link.id).execute()
    expect(stored).toHaveLength(3)
    expect((await send(second, 'hello', '10.8.0.2')).statusCode).toBe(200)
  })
})
