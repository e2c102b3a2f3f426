// Running out of free aliases, over HTTP: with a generator that only ever draws a taken alias,
// creating a link, a bio page or a QR code answers 409 `aliases_exhausted` in the envelope, never a
// 500, and leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../../src/app.js'
import { loadConfig } from '../../../src/config.js'
import type { App } from '../../../src/http/app-instance.js'
import { createRateLimiter } from '../../../src/http/rate-limit.js'
import { createLogger } from '../../../src/logger.js'
import { createServices, type Services } from '../../../src/services.js'
import { apiClient, createAccount, PUBLIC_URL, type ApiClient } from '../../helpers/test-app.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database.js'
import { uniqueAlias } from '../../helpers/factories.js'

describe('aliases exhausted', () => {
  // Taken by the first record of each kind, then drawn for every later one.
  const alwaysDrawn = uniqueAlias('only').toLowerCase()
  let database: TestDatabase
  let services: Services
  let app: App
  let api: ApiClient
  let draws = 0

  beforeAll(async () => {
    database = await createTestDatabase()
    const config = loadConfig({ PUBLIC_URL, RATE_LIMIT_PER_MINUTE: '100000', KEY_CACHE_MS: '0', LOG_LEVEL: 'silent' })
    services = createServices({
      config,
      database,
      log: createLogger({ logLevel: 'silent' }),
      drawAlias: () => {
        draws += 1
        return alwaysDrawn
      },
    })
    app = await buildApp({ services, rateLimiter: createRateLimiter() })
    await app.ready()
    api = apiClient(app, (await createAccount({ services })).apiKey)
  })
  afterAll(async () => {
    await app.close()
    await database.destroy()
  })

  const EXHAUSTED = {
    error: 1,
    message: 'No free alias could be drawn for this record. Please try again, or choose an alias yourself where the API allows it.',
    code: 'aliases_exhausted',
  }

  it('answers a link or bio page without a free alias with 409, and a custom alias still works', async () => {
    const first = await api('POST', '/api/url/add', { url: 'https://first.example' })
    expect(first.statusCode).toBe(201)
    expect(first.data.shorturl).toBe(`${PUBLIC_URL}/${alwaysDrawn}`)

    draws = 0
    const link = await api('POST', '/api/url/add', { url: 'https://second.example' })
    expect([link.statusCode, link.data]).toEqual([409, EXHAUSTED])
    expect(draws).toBe(5)
    // The bio page shares the main host's namespace: the link's alias is taken for it too.
    const page = await api('POST', '/api/bio/add', { name: 'Unlucky' })
    expect([page.statusCode, page.data]).toEqual([409, EXHAUSTED])

    expect((await api('GET', '/api/urls')).data.data.urls).toHaveLength(1)
    expect((await api('GET', '/api/bio')).data.data.bio).toEqual([])
    expect((await api('POST', '/api/url/add', { url: 'https://chosen.example', custom: uniqueAlias('chosen') })).statusCode).toBe(201)
  })

  it('answers a QR code without a free alias with 409', async () => {
    const body = { type: 'text', data: 'hello' }
    expect((await api('POST', '/api/qr/add', body)).statusCode).toBe(201)
    const second = await api('POST', '/api/qr/add', body)
    expect([second.statusCode, second.data]).toEqual([409, EXHAUSTED])
  })
})
