import { bindable } from '../../../src/db/transactions.js'
import { commandLineActor, createChangeJournal } from '../../../src/modules/changes/change-journal.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccountRepository } from '../../../src/modules/accounts/account.repository.js'
import { createAccountService, type AccountService } from '../../../src/modules/accounts/account.service.js'
import { createApiKeyRepository } from '../../../src/modules/api-keys/api-key.repository.js'
import { createApiKeyService, type ApiKeyService } from '../../../src/modules/api-keys/api-key.service.js'
import { createPlanRepository } from '../../../src/modules/plans/plan.repository.js'
import { createPlanService } from '../../../src/modules/plans/plan.service.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database.js'
import { NotFoundError } from '../../../src/core/errors.js'
import { createAuditRepository } from '../../../src/modules/audit/audit.repository.js'


describe('account service: lookups and administration', () => {
  let database: TestDatabase
  let accounts: AccountService
  let apiKeys: ApiKeyService
  let operatorId: number
  /** Who makes the changes under test: an operator on the command line, in their own account. */
  const operator = () => commandLineActor(operatorId)

  beforeAll(async () => {
    database = await createTestDatabase()
    const journal = createChangeJournal({ db: database.db, audit: bindable(createAuditRepository, database.db) })
    const plans = createPlanService({ plans: bindable(createPlanRepository, database.db), journal })
    const keys = bindable(createApiKeyRepository, database.db)
    accounts = createAccountService({ accounts: bindable(createAccountRepository, database.db), keys, plans, journal })
    apiKeys = createApiKeyService({ keys, journal, makerOf: (actor) => accounts.personActingFor(actor) })
    operatorId = (await accounts.createAccount({ email: 'operator@example.com', username: 'operator' })).id
  })
  afterAll(() => database.destroy())

  it('finds an account by id or by username; an id wins over a username made of digits', async () => {
    const named = await accounts.createAccount({ email: 'ref-named@example.com', username: 'ref_named' })
    const digits = await accounts.createAccount({ email: 'ref-digits@example.com', username: '7777' })
    expect((await accounts.findAccountByReference('ref_named'))?.id).toBe(named.id)
    expect((await accounts.findAccountByReference(String(named.id)))?.id).toBe(named.id)
    // No account has the id 7777 yet: the username is meant.
    expect((await accounts.findAccountByReference('7777'))?.id).toBe(digits.id)
    const plan = await database.db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
    await database.db
      .insertInto('accounts')
      .values({ id: 7777, email: 'id-7777@example.com', username: 'holds_id', password_hash: null, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: '2026-01-01 00:00:00' })
      .execute()
    expect((await accounts.findAccountByReference('7777'))?.username).toBe('holds_id')
    expect(await accounts.findAccountByReference('nobody_here')).toBeUndefined()
    expect(await accounts.findAccountByReference('99999999')).toBeUndefined()
  })

  it('lists every account oldest first, with its plan', async () => {
    const plan = await database.db
      .insertInto('plans')
      .values({ name: 'Listed', code: 'listed', apirate: null, limits: '{}', is_default: 0, created_at: '2026-01-01 00:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const first = await accounts.createAccount({ email: 'list-first@example.com', username: 'list_first' })
    const second = await accounts.createAccount({ email: 'list-second@example.com', username: 'list_second', plan: plan.id })
    const third = await accounts.createAccount({ email: 'list-third@example.com', username: 'list_third' })
    // Other tests of this file may have added accounts: only the relative order of these three is known.
    const listed = (await accounts.listAllAccounts()).filter((account) => [first.id, second.id, third.id].includes(account.id))
    expect(listed.map((account) => [account.username, account.plan_code])).toEqual([
      ['list_first', 'pro'],
      ['list_second', 'listed'],
      ['list_third', 'pro'],
    ])
  })

  it('suspends and lifts a suspension; authentication reports it', async () => {
    const created = await accounts.createAccount({ email: 'suspend-me@example.com', username: 'suspend_me' })
    await accounts.setSuspended(operator(), created.id, true)
    expect((await apiKeys.authenticate(created.apiKey)).isSuspended).toBe(true)
    await accounts.setSuspended(operator(), created.id, false)
    expect((await apiKeys.authenticate(created.apiKey)).isSuspended).toBe(false)
  })

  it('moves an account to another plan', async () => {
    const created = await accounts.createAccount({ email: 'mover@example.com', username: 'mover' })
    const plan = await database.db
      .insertInto('plans')
      .values({ name: 'Moved', code: 'moved', apirate: 9, limits: '{"pixels":2}', is_default: 0, created_at: '2026-01-01 00:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow()
    await accounts.assignPlan(operator(), created.id, plan.id)
    expect(await apiKeys.authenticate(created.apiKey)).toMatchObject({ apirate: 9, limits: { pixels: 2 } })
  })

  it('deletes an account with its keys', async () => {
    const created = await accounts.createAccount({ email: 'delete-me@example.com', username: 'delete_me' })
    await accounts.deleteAccount(operator(), created.id)
    expect(await accounts.findAccount(created.id)).toBeUndefined()
    await expect(apiKeys.authenticate(created.apiKey)).rejects.toMatchObject({ code: 'invalid_api_key' })
  })

  it('throws NotFoundError for unknown accounts and plans', async () => {
    const existing = await accounts.createAccount({ email: 'exists@example.com', username: 'exists' })
    await expect(accounts.setSuspended(operator(), 99999999, true)).rejects.toBeInstanceOf(NotFoundError)
    await expect(accounts.deleteAccount(operator(), 99999999)).rejects.toBeInstanceOf(NotFoundError)
    await expect(accounts.assignPlan(operator(), 99999999, 1)).rejects.toThrow('Account not found. Please try again.')
    await expect(accounts.assignPlan(operator(), existing.id, 99999999)).rejects.toThrow('Plan not found. Please try again.')
  })
})
