// Two server processes on one PostgreSQL database and one Redis behave as one service.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import pg from 'pg'
import { eventually } from '../helpers/eventually.js'
import { startServer, type ServerProcess } from '../helpers/server-process.js'

const postgresUrl = process.env.TEST_DATABASE_URL
const redisUrl = process.env.TEST_REDIS_URL

describe.skipIf(!postgresUrl || !redisUrl)('two instances on PostgreSQL and Redis', () => {
  const databaseName = `lw_multi_${randomBytes(5).toString('hex')}`
  const redisPrefix = `lwtest:${randomBytes(4).toString('hex')}:`
  const adminKey = randomBytes(32).toString('base64url')
  let first: ServerProcess
  let second: ServerProcess

  const call = (server: ServerProcess, key: string, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    await admin.query(`create database ${databaseName}`)
    await admin.end()
    const databaseUrl = new URL(postgresUrl!)
    databaseUrl.pathname = `/${databaseName}`
    const env = {
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: redisPrefix,
      RATE_LIMIT_PER_MINUTE: '30',
      LINKWELL_BOOTSTRAP_API_KEY: adminKey,
    }
    // Started together: one migrates and bootstraps, the other waits on the lock.
    ;[first, second] = await Promise.all([startServer(env), startServer(env)])
  })

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()])
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    await admin.query(`drop database if exists ${databaseName} with (force)`)
    await admin.end()
    const redis = new Redis(redisUrl!)
    const keys = await redis.keys(`${redisPrefix}*`)
    if (keys.length) await redis.del(...keys)
    redis.disconnect()
  })

  it('both start on the same database, migrated once, with one bootstrap admin', async () => {
    const [a, b] = await Promise.all([call(first, adminKey, 'GET', '/api/account'), call(second, adminKey, 'GET', '/api/account')])
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(((await a.json()) as { data: { username: string } }).data.username).toBe('admin')
  })

  it('shares one rate limit: 30 requests over both instances pass, the 31st is refused', async () => {
    const created = await call(first, adminKey, 'POST', '/api/user/add', { email: 'limited@example.com', username: 'limited' })
    expect(created.status).toBe(201)
    const { apiKey } = (await created.json()) as { apiKey: string }
    const statuses: number[] = []
    for (let i = 0; i < 30; i += 1) {
      statuses.push((await call(i % 2 === 0 ? first : second, apiKey, 'GET', '/api/campaigns')).status)
    }
    expect(statuses.every((status) => status === 200)).toBe(true)
    const refused = await call(first, apiKey, 'GET', '/api/campaigns')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await call(second, apiKey, 'GET', '/api/campaigns')).status).toBe(429)
  })

  it('reads through one instance what was written through the other', async () => {
    const created = await call(first, adminKey, 'POST', '/api/campaign/add', { name: 'Cross instance', slug: `x-${randomBytes(3).toString('hex')}` })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const list = (await (await call(second, adminKey, 'GET', '/api/campaigns')).json()) as { data: { campaigns: Array<{ id: number }> } }
    expect(list.data.campaigns.map((campaign) => campaign.id)).toContain(id)
  })

  // The bus carries the deletion at once, and a key's lookup is reused for a second at most
  // (KEY_CACHE_MS): how soon is not asserted (a loaded machine decides it), only that it happens.
  it('refuses on the other instance a key whose account was deleted through one', async () => {
    const created = await call(first, adminKey, 'POST', '/api/user/add', { email: 'leaver@example.com', username: 'leaver' })
    const { id, apiKey } = (await created.json()) as { id: number; apiKey: string }
    expect((await call(second, apiKey, 'GET', '/api/account')).status).toBe(200)
    expect((await call(first, adminKey, 'DELETE', `/api/user/${id}/delete`)).status).toBe(200)
    const status = await eventually(async () => (await call(second, apiKey, 'GET', '/api/account')).status, (answer) => answer === 401, { timeoutMs: 20_000 })
    expect(status).toBe(401)
  })

  it('both stop cleanly on SIGTERM', async () => {
    expect(await first.stop()).toBe(0)
    expect(await second.stop()).toBe(0)
  })
})
