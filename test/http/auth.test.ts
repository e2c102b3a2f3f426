import { bindable } from '../../src/db/transactions.js'
import { createChangeJournal, commandLineActor } from '../../src/modules/changes/change-journal.js'
import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApiKeyRepository } from '../../src/modules/api-keys/api-key.repository.js'
import { createApiKeyService, type ApiKeyService } from '../../src/modules/api-keys/api-key.service.js'
import { apiClient, createAccount, type TestAccount, useTestApp } from '../helpers/test-app.js'
import { createAuditRepository } from '../../src/modules/audit/audit.repository.js'


const INVALID_KEY = { error: 1, message: 'A valid API key is required to use this service.', code: 'invalid_api_key' }
const EXPIRED_KEY = { error: 1, message: 'This API key has expired.', code: 'expired_api_key' }
const FORBIDDEN = { error: 1, message: 'You do not have permission to access this endpoint.', code: 'forbidden' }

describe('API key authentication', () => {
  let account: TestAccount
  let service: ApiKeyService

  const { context } = useTestApp()

  beforeAll(async () => {
    account = await createAccount(context)
    service = createApiKeyService({ keys: bindable(createApiKeyRepository, context.database.db), journal: createChangeJournal({ db: context.database.db, audit: bindable(createAuditRepository, context.database.db) }), makerOf: (actor) => context.services.accounts.personActingFor(actor) })
  })

  async function getAccount(authorization?: string) {
    const response = await context.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: authorization === undefined ? {} : { authorization },
    })
    return { statusCode: response.statusCode, data: response.json() }
  }

  it.each([
    ['Bearer', `Bearer ${'KEY'}`],
    ['Token', `Token ${'KEY'}`],
    ['lower-case bearer', `bearer ${'KEY'}`],
  ])('accepts the %s scheme', async (_scheme, template) => {
    const response = await getAccount(template.replace('KEY', account.apiKey))
    expect(response.statusCode).toBe(200)
    expect(response.data.data.id).toBe(account.id)
  })

  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['a scheme without a key', 'Bearer'],
    ['the key without a scheme', 'KEY'],
    ['another scheme', 'Basic KEY'],
    ['garbage', 'Bearer !!not-a-key!!'],
    ['an unknown well-formed key', `Bearer lw_${'A'.repeat(43)}`],
    ['a key of another length', 'Bearer KEYx'],
    ['an absurdly long key', `Bearer ${'a'.repeat(300)}`],
  ])('refuses %s with 401', async (_case, template) => {
    const response = await getAccount(template?.replace('KEY', account.apiKey))
    expect(response.statusCode).toBe(401)
    expect(response.data).toEqual(INVALID_KEY)
  })

  it('refuses an expired key with its own message, and accepts a key that has not expired yet', async () => {
    const expired = await service.createKey(commandLineActor(account.id), { name: 'old', expiresAt: '2000-01-01 00:00:00' })
    const response = await getAccount(`Bearer ${expired.key}`)
    expect(response.statusCode).toBe(401)
    expect(response.data).toEqual(EXPIRED_KEY)
    const current = await service.createKey(commandLineActor(account.id), { name: 'current', expiresAt: '2999-01-01 00:00:00' })
    expect((await getAccount(`Bearer ${current.key}`)).statusCode).toBe(200)
  })

  it('keeps several keys per account working until one is revoked', async () => {
    const rotated = await service.createKey(commandLineActor(account.id), { name: 'rotation' })
    expect((await getAccount(`Bearer ${rotated.key}`)).statusCode).toBe(200)
    await service.revokeKey(commandLineActor(account.id), rotated.id)
    const revoked = await getAccount(`Bearer ${rotated.key}`)
    expect(revoked.statusCode).toBe(401)
    expect(revoked.data).toEqual(INVALID_KEY)
    expect((await getAccount(`Bearer ${account.apiKey}`)).statusCode).toBe(200)
  })

  it('refuses a suspended account with 403 on every endpoint, and lets it back in once lifted', async () => {
    const suspended = await createAccount(context)
    const api = apiClient(context.app, suspended.apiKey)
    await context.services.accounts.setSuspended(commandLineActor(account.id), suspended.id, true)
    for (const [method, url] of [['GET', '/api/account'], ['GET', '/api/campaigns'], ['POST', '/api/campaign/add'], ['GET', '/api/nowhere']]) {
      const response = await api(method!, url!)
      expect(response.statusCode, url).toBe(403)
      expect(response.data).toEqual(FORBIDDEN)
    }
    await context.services.accounts.setSuspended(commandLineActor(account.id), suspended.id, false)
    expect((await api('GET', '/api/account')).statusCode).toBe(200)
  })

  it('guards every /api route, unknown ones included, but not the OpenAPI document or the health check', async () => {
    const anonymous = apiClient(context.app, null)
    for (const url of ['/api/campaigns', '/api/users', '/api/does-not-exist', '/api']) {
      const response = await anonymous('GET', url)
      expect(response.statusCode, url).toBe(401)
      expect(response.data).toEqual(INVALID_KEY)
    }
    expect((await anonymous('GET', '/api/openapi.json')).statusCode).toBe(200)
    expect((await anonymous('GET', '/healthz')).statusCode).toBe(200)
  })

  it('never stores the key itself, only its SHA-256 and a short prefix', async () => {
    const rows = await context.database.db.selectFrom('api_keys').selectAll().where('account_id', '=', account.id).execute()
    // The key's own row: its SHA-256 and its first eight characters.
    expect(rows.map((row) => [row.key_hash, row.key_prefix])).toContainEqual([createHash('sha256').update(account.apiKey).digest('hex'), account.apiKey.slice(0, 8)])
    for (const row of rows) {
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/)
      expect(row.key_prefix.length).toBeLessThanOrEqual(8)
      expect(JSON.stringify(row)).not.toContain(account.apiKey)
    }
  })
})
