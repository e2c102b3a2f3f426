import { describe, expect, it } from 'vitest'
import { verifyPassword } from '../../../src/core/secrets.js'
import { createCampaign, createLink } from '../../helpers/factories.js'
import { apiClient, createAccount, PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'

describe('account endpoints', () => {
  const { context, owner, api } = useTestApp()

  async function storedAccount(id: number) {
    return context.database.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  }

  // Passwords are the account's person's since migration 020 (teams).
  async function storedPassword(id: number) {
    return (await context.database.db.selectFrom('people').innerJoin('memberships', 'memberships.person_id', 'people.id').select('people.password_hash').where('memberships.account_id', '=', id).executeTakeFirstOrThrow()).password_hash
  }

  it('reads the account with exactly the spec fields plus planid', async () => {
    const response = await api('GET', '/api/account')
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({
      error: 0,
      data: {
        id: owner.id,
        email: owner.email,
        username: owner.username,
        avatar: `${PUBLIC_URL}/avatar/${owner.username}.svg`,
        status: 'pro',
        expires: null,
        registered: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        planid: expect.any(Number),
      },
    })
  })

  it('shows the plan expiry and never an admin flag, password hash or key', async () => {
    const admin = await createAccount(context, { isAdmin: true, password: 'long enough secret', planExpires: '2030-01-01 00:00:00' })
    const response = await apiClient(context.app, admin.apiKey)('GET', '/api/account')
    expect(response.data.data.expires).toBe('2030-01-01 00:00:00')
    expect(Object.keys(response.data.data).sort()).toEqual(['avatar', 'email', 'expires', 'id', 'planid', 'registered', 'status', 'username'])
    expect(response.body).not.toContain('scrypt')
    expect(response.body).not.toContain(admin.apiKey)
  })

  it('updates the e-mail (normalised to lower case) and the password', async () => {
    const account = await createAccount(context)
    const client = apiClient(context.app, account.apiKey)
    const response = await client('PUT', '/api/account/update', { email: ' Changed.Address@Example.COM ', password: 'a brand new password' })
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({ error: 0, message: 'Account has been successfully updated.' })
    expect((await client('GET', '/api/account')).data.data.email).toBe('changed.address@example.com')
    const stored = await storedPassword(account.id)
    expect(stored).not.toContain('a brand new password')
    expect(await verifyPassword('a brand new password', stored!)).toBe(true)
  })

  it('updates only the e-mail, or only the password', async () => {
    const account = await createAccount(context, { password: 'original password' })
    const client = apiClient(context.app, account.apiKey)
    expect((await client('PUT', '/api/account/update', { email: 'only-email@example.com' })).statusCode).toBe(200)
    expect(await verifyPassword('original password', (await storedPassword(account.id))!)).toBe(true)
    expect((await client('PUT', '/api/account/update', { password: 'only the password' })).statusCode).toBe(200)
    expect((await storedAccount(account.id)).email).toBe('only-email@example.com')
  })

  it('answers 400 when neither e-mail nor password is given', async () => {
    const response = await api('PUT', '/api/account/update', { nickname: 'ignored' })
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual({ error: 1, message: 'Provide an "email", a "password" or both.', code: 'validation_failed' })
  })

  it.each([
    [{ email: 'not-an-address' }, 'email'],
    [{ email: 'two@@example.com' }, 'email'],
    [{ email: 42 }, 'email'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'email'],
    [{ password: 'short' }, 'password'],
    [{ password: 12345678 }, 'password'],
    [{ password: 'p'.repeat(257) }, 'password'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const response = await api('PUT', '/api/account/update', body)
    expect(response.statusCode).toBe(400)
    expect(response.data.code).toBe('validation_failed')
    expect(response.data.message).toContain(`"${field}"`)
  })

  it("refuses another account's e-mail but accepts the account's own", async () => {
    const other = await createAccount(context)
    const taken = await api('PUT', '/api/account/update', { email: other.email.toUpperCase() })
    expect(taken.statusCode).toBe(400)
    expect(taken.data).toEqual({ error: 1, message: 'An account with this e-mail address already exists.', code: 'duplicate', field: 'email' })
    const own = await api('PUT', '/api/account/update', { email: owner.email })
    expect(own.statusCode).toBe(200)
  })

  it('changes only the calling account', async () => {
    // A caller of its own: the file's owner keeps its e-mail for the other tests.
    const caller = await createAccount(context)
    const other = await createAccount(context)
    await apiClient(context.app, caller.apiKey)('PUT', '/api/account/update', { email: 'caller-new@example.com' })
    expect((await storedAccount(caller.id)).email).toBe('caller-new@example.com')
    expect((await storedAccount(other.id)).email).toBe(other.email)
  })

  describe('GET /api/account/limits', () => {
    it("counts each limited resource against the plan's limit, and says whether the account administers", async () => {
      const db = context.database.db
      const plan = await db.insertInto('plans').values({ name: 'Small', code: `small-${Date.now()}`, apirate: null, limits: '{"campaigns":2,"links":10}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
      const account = await createAccount(context, { plan: plan.id })
      await createCampaign(context, account)
      await createLink(context, account)
      await createLink(context, account)
      const response = await apiClient(context.app, account.apiKey)('GET', '/api/account/limits')
      expect(response.statusCode).toBe(200)
      const { planid, admin, resources } = response.data.data
      expect(planid).toBe(plan.id)
      expect(admin).toBe(false)
      expect(resources).toHaveLength(10)
      expect(resources).toContainEqual({ resource: 'campaigns', used: 1, limit: 2 })
      expect(resources).toContainEqual({ resource: 'links', used: 2, limit: 10 })
      expect(resources).toContainEqual({ resource: 'qrcodes', used: 0, limit: null })
      const limitedCampaign = await apiClient(context.app, account.apiKey)('POST', '/api/campaign/add', { name: 'Second' })
      expect(limitedCampaign.statusCode, limitedCampaign.body).toBe(201)
      const atLimit = await apiClient(context.app, account.apiKey)('GET', '/api/account/limits')
      expect(atLimit.data.data.resources).toContainEqual({ resource: 'campaigns', used: 2, limit: 2 })
    })

    it('tells an administrator so, and refuses without a credential', async () => {
      const admin = await createAccount(context, { isAdmin: true })
      expect((await apiClient(context.app, admin.apiKey)('GET', '/api/account/limits')).data.data.admin).toBe(true)
      expect((await context.app.inject({ method: 'GET', url: '/api/account/limits' })).statusCode).toBe(401)
    })
  })
})
