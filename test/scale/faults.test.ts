// Redis or PostgreSQL going away and coming back, through a TCP proxy we cut and restore.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import pg from 'pg'
import type { App } from '../../src/http/app-instance.js'
import type { Services } from '../../src/services.js'
import { loadConfig } from '../../src/config.js'
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { apiClient, buildAppOn, createAccount } from '../helpers/test-app.js'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js'
import { connectRedis } from '../../src/redis/connection.js'
import { eventually } from '../helpers/eventually.js'

const postgresUrl = process.env.TEST_DATABASE_URL
const redisUrl = process.env.TEST_REDIS_URL


interface Setup {
  app: App
  services: Services
  database: DatabaseHandle
  redis?: Redis
  schema: string
}

async function createSchema(url: string): Promise<string> {
  const schema = `lw_fault_${randomBytes(5).toString('hex')}`
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.end()
  return schema
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`drop schema if exists ${schema} cascade`)
  await client.end()
}

async function setUp(databaseUrl: string, schema: string, redis?: Redis): Promise<Setup> {
  const database = openDatabase(databaseUrl, { schema, poolMax: 4 })
  await migrateToLatest(database)
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '30', LOG_LEVEL: 'silent', PUBLIC_URL: 'https://lw.test' })
  const { app, services } = await buildAppOn(database, config, { redis })
  return { app, services, database, redis, schema }
}

describe.skipIf(!postgresUrl || !redisUrl)('when Redis goes away', () => {
  let proxy: TcpProxy
  let setup: Setup
  let observer: Redis
  const prefix = `lwtest:${randomBytes(4).toString('hex')}:`

  beforeAll(async () => {
    const target = new URL(redisUrl!)
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379))
    const redis = connectRedis(`redis://127.0.0.1:${proxy.port}`, prefix)
    redis.on('error', () => {})
    setup = await setUp(postgresUrl!, await createSchema(postgresUrl!), redis)
    observer = new Redis(redisUrl!)
  })
  afterAll(async () => {
    await setup.app.close()
    setup.redis?.disconnect()
    await setup.database.close()
    await dropSchema(postgresUrl!, setup.schema)
    const keys = await observer.keys(`${prefix}*`)
    if (keys.length) await observer.del(...keys)
    observer.disconnect()
    await proxy.close()
  })

  it('keeps answering on a per-instance limit and shares counts again once it returns', async () => {
    const account = await createAccount(setup)
    const api = apiClient(setup.app, account.apiKey)
    const counterKey = `${prefix}rl:30:account:${account.id}`
    await eventually(() => setup.app.inject({ url: '/readyz' }).then((r) => r.statusCode), (s) => s === 200)

    for (let i = 0; i < 3; i += 1) expect((await api('GET', '/api/account')).statusCode).toBe(200)
    expect(await observer.get(counterKey)).toBe('3')

    // A request that waited on the cut connection would outlast the test's timeout: answering is the check.
    await proxy.cut()
    for (let i = 0; i < 3; i += 1) {
      const response = await api('GET', '/api/account')
      expect(response.statusCode).toBe(200)
      expect(response.headers['x-ratelimit-limit']).toBe('30')
    }
    expect((await setup.app.inject({ url: '/readyz' })).statusCode).toBe(503)
    const health = await setup.app.inject({ url: '/healthz' })
    expect(health.statusCode).toBe(200)
    expect(health.json()).toMatchObject({ status: 'degraded', database: 'ok', redis: 'unreachable' })
    expect(await observer.get(counterKey)).toBe('3')

    await proxy.restore()
    const shared = await eventually(
      async () => {
        await api('GET', '/api/account')
        return observer.get(counterKey)
      },
      (value) => Number(value) > 3,
    )
    expect(Number(shared)).toBeGreaterThan(3)
    expect((await setup.app.inject({ url: '/readyz' })).statusCode).toBe(200)
  })
})

describe.skipIf(!postgresUrl)('when PostgreSQL goes away', () => {
  let proxy: TcpProxy
  let setup: Setup

  beforeAll(async () => {
    const target = new URL(postgresUrl!)
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
    const viaProxy = new URL(postgresUrl!)
    viaProxy.hostname = '127.0.0.1'
    viaProxy.port = String(proxy.port)
    setup = await setUp(viaProxy.toString(), await createSchema(postgresUrl!))
  })
  afterAll(async () => {
    await setup.app.close()
    await setup.database.close()
    await proxy.close()
    await dropSchema(postgresUrl!, setup.schema)
  })

  it('answers 503 in the envelope, without hanging, and recovers by itself', async () => {
    const account = await createAccount(setup)
    const api = apiClient(setup.app, account.apiKey)
    expect((await api('GET', '/api/account')).statusCode).toBe(200)

    // A request that waited on the cut connection would outlast the test's timeout: answering is the check.
    await proxy.cut()
    const down = await api('GET', '/api/account')
    expect(down.statusCode).toBe(503)
    expect(down.data).toMatchObject({ error: 1, code: 'service_unavailable' })
    expect((await api('POST', '/api/campaign/add', { name: 'while down' })).statusCode).toBe(503)
    expect((await setup.app.inject({ url: '/healthz' })).statusCode).toBe(503)
    expect((await setup.app.inject({ url: '/readyz' })).statusCode).toBe(503)

    await proxy.restore()
    const recovered = await eventually(() => api('GET', '/api/account'), (r) => r.statusCode === 200)
    expect(recovered.statusCode).toBe(200)
    expect((await api('POST', '/api/campaign/add', { name: 'after recovery' })).statusCode).toBe(201)
  })
})
