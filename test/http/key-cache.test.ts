// Key lookups are reused for at most KEY_CACHE_MS (≤ 1 s); admin changes through the API drop
// them at once on every instance (ACCOUNT_TOPIC).
import { bindable } from '../../src/db/transactions.js'
import { createChangeJournal, commandLineActor } from '../../src/modules/changes/change-journal.js'
import { describe, expect, it } from 'vitest'
import { createApiKeyRepository } from '../../src/modules/api-keys/api-key.repository.js'
import { createApiKeyService } from '../../src/modules/api-keys/api-key.service.js'
import { apiClient, createAccount, useTestApp } from '../helpers/test-app.js'
import { createAuditRepository } from '../../src/modules/audit/audit.repository.js'

describe('the key lookup cache', () => {
  // A logical clock, the key cache's only reading of time: the test moves it, so neither the
  // machine's load nor how long a request takes can decide (a timed loop, then a faked global
  // Date, failed on loaded machines).
  let clock = 1_000_000
  const { context } = useTestApp({ env: { KEY_CACHE_MS: '1000' }, keyCacheClock: () => clock })

  it('stops honouring a key revoked behind the app’s back within a second', async () => {
    const account = await createAccount(context)
    const service = createApiKeyService({ keys: bindable(createApiKeyRepository, context.database.db), journal: createChangeJournal({ db: context.database.db, audit: bindable(createAuditRepository, context.database.db) }), makerOf: (actor) => context.services.accounts.personActingFor(actor) })
    const rotated = await service.createKey(commandLineActor(account.id), { name: 'rotated' })
    const api = apiClient(context.app, rotated.key)
    expect((await api('GET', '/api/account')).statusCode).toBe(200)
    await service.revokeKey(commandLineActor(account.id), rotated.id)
    // Served from the cache while its second lasts ...
    clock += 999
    expect((await api('GET', '/api/account')).statusCode).toBe(200)
    // ... and never longer than a second.
    clock += 1
    expect((await api('GET', '/api/account')).statusCode).toBe(401)
  })

  it('refuses a suspended account at once when an admin suspends it through the API', async () => {
    const admin = await createAccount(context, { isAdmin: true })
    const user = await createAccount(context)
    const userApi = apiClient(context.app, user.apiKey)
    expect((await userApi('GET', '/api/account')).statusCode).toBe(200)
    expect((await apiClient(context.app, admin.apiKey)('PUT', `/api/user/${user.id}/suspend`)).statusCode).toBe(200)
    expect((await userApi('GET', '/api/account')).statusCode).toBe(403)
  })
})
