import { beforeAll, describe, expect, it } from 'vitest'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, type ApiClient, type TestAccount, useTestApp } from '../../helpers/test-app.js'

const FORBIDDEN = { error: 1, message: 'You do not have permission to access this endpoint.', code: 'forbidden' }
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('administration endpoints', () => {
  let admin: TestAccount
  let adminApi: ApiClient
  let member: TestAccount
  let memberApi: ApiClient

  const { context } = useTestApp()

  beforeAll(async () => {
    admin = await createAccount(context, { isAdmin: true })
    adminApi = apiClient(context.app, admin.apiKey)
    member = await createAccount(context)
    memberApi = apiClient(context.app, member.apiKey)
  })

  async function insertPlan(name: string, apirate: number | null, limits: Record<string, number>) {
    const row = await context.database.db
      .insertInto('plans')
      .values({ name, code: name.toLowerCase(), apirate, limits: JSON.stringify(limits), is_default: 0, created_at: '2026-01-01 00:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  describe('admin only', () => {
    it.each([
      ['GET', '/api/users', undefined],
      ['GET', '/api/user/1', undefined],
      ['GET', '/api/admin/people', undefined],
      ['POST', '/api/user/add', { email: 'x@example.com', username: 'sneaky' }],
      ['DELETE', '/api/user/1/delete', undefined],
      ['PUT', '/api/user/1/suspend', undefined],
      ['PUT', '/api/user/1/unsuspend', undefined],
      ['GET', '/api/plans', undefined],
      ['PUT', '/api/plan/1/user/1', undefined],
      // Refused before validation: a non-admin learns nothing about ids or body rules.
      ['GET', '/api/user/abc', undefined],
      ['POST', '/api/user/add', { email: 42 }],
    ])('%s %s answers 403 to a non-admin', async (method, url, body) => {
      const response = await memberApi(method, url, body)
      expect(response.statusCode).toBe(403)
      expect(response.data).toEqual(FORBIDDEN)
    })

    it('answers 401 without a key', async () => {
      const response = await apiClient(context.app, null)('GET', '/api/users')
      expect(response.statusCode).toBe(401)
      expect(response.data.message).toBe('A valid API key is required to use this service.')
    })

    it('did not create the account a non-admin tried to add', async () => {
      const list = await adminApi('GET', '/api/users?limit=100')
      expect(list.data.data.users.map((user: { username: string }) => user.username)).not.toContain('sneaky')
    })
  })

  describe('people', () => {
    it('lists the people who sign in with each workspace they belong to, their role, 2FA and last sign-in, paged', async () => {
      const db = context.database.db
      const person = await db.selectFrom('people').selectAll().where('username', '=', member.username).executeTakeFirstOrThrow()
      // The member's person also joins the admin's workspace as a viewer.
      await db.insertInto('memberships').values({ account_id: admin.id, person_id: person.id, role: 'viewer', created_at: '2030-01-01 00:00:00' }).execute()

      const total = Number((await db.selectFrom('people').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()).count)
      const pages = []
      for (let page = 1; ; page++) {
        const response = await adminApi('GET', `/api/admin/people?limit=50&page=${page}`)
        expect(response.statusCode).toBe(200)
        expect(response.data.data).toMatchObject({ result: total, perpage: 50, currentpage: page })
        pages.push(...response.data.data.people)
        if (response.data.data.nextpage === null) break
      }
      expect(pages).toHaveLength(total)
      expect(pages.find((entry: { id: number }) => entry.id === person.id)).toEqual({
        id: person.id,
        username: member.username,
        email: member.email.toLowerCase(),
        twofactor: false,
        lastsignin: null,
        date: expect.stringMatching(TIMESTAMP),
        workspaces: [
          { id: member.id, name: member.username, role: 'owner', suspended: false },
          { id: admin.id, name: admin.username, role: 'viewer', suspended: false },
        ],
      })
      expect((await adminApi('GET', '/api/admin/people?limit=0')).statusCode).toBe(400)
    })
  })

  describe('users', () => {
    it('reads one user with the account fields plus planid, admin and suspended', async () => {
      const response = await adminApi('GET', `/api/user/${member.id}`)
      expect(response.statusCode).toBe(200)
      expect(response.data).toEqual({
        error: 0,
        data: {
          id: member.id,
          email: member.email,
          username: member.username,
          avatar: `${PUBLIC_URL}/avatar/${member.username}.svg`,
          status: 'pro',
          expires: null,
          registered: expect.stringMatching(TIMESTAMP),
          planid: expect.any(Number),
          admin: false,
          suspended: false,
        },
      })
      const self = await adminApi('GET', `/api/user/${admin.id}`)
      expect(self.data.data.admin).toBe(true)
    })

    it('answers 404 for an unknown user and 400 for ids that are not positive integers', async () => {
      const missing = await adminApi('GET', '/api/user/999999')
      expect(missing.statusCode).toBe(404)
      expect(missing.data).toEqual({ error: 1, message: 'User not found. Please try again.', code: 'not_found' })
      for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
        const response = await adminApi('GET', `/api/user/${id}`)
        expect(response.statusCode, id).toBe(400)
        expect(response.data.code).toBe('validation_failed')
      }
    })

    it('creates a user with a working key (201) and the given plan, expiry and admin flag', async () => {
      const planId = await insertPlan('Creator', 7, { campaigns: 3 })
      const response = await adminApi('POST', '/api/user/add', {
        email: 'New.Person@Example.com',
        username: 'new-person',
        password: 'correct horse',
        planid: planId,
        expiration: '2030-06-30 12:00:00',
        admin: true,
        ignored: 'never stored',
      })
      expect(response.statusCode).toBe(201)
      expect(response.data).toEqual({
        error: 0,
        id: expect.any(Number),
        username: 'new-person',
        email: 'new.person@example.com',
        apiKey: expect.stringMatching(/^lw_[A-Za-z0-9_-]{43}$/),
      })
      const asNewUser = await apiClient(context.app, response.data.apiKey)('GET', '/api/account')
      expect(asNewUser.statusCode).toBe(200)
      expect(asNewUser.data.data).toMatchObject({ id: response.data.id, status: 'creator', planid: planId, expires: '2030-06-30 12:00:00' })
      const record = await adminApi('GET', `/api/user/${response.data.id}`)
      expect(record.data.data).toMatchObject({ admin: true, suspended: false })
      expect(record.data.data).not.toHaveProperty('ignored')
      // The new admin may administer.
      expect((await apiClient(context.app, response.data.apiKey)('GET', '/api/users')).statusCode).toBe(200)
    })

    it('creates a user on the default plan without a password, plan or expiry; a bare date means midnight UTC', async () => {
      const bare = await adminApi('POST', '/api/user/add', { email: 'bare@example.com', username: 'bare_user' })
      expect(bare.statusCode).toBe(201)
      const record = await adminApi('GET', `/api/user/${bare.data.id}`)
      expect(record.data.data).toMatchObject({ status: 'pro', expires: null, admin: false })
      const dated = await adminApi('POST', '/api/user/add', { email: 'dated@example.com', username: 'dated_user', expiration: '2031-01-15' })
      expect((await adminApi('GET', `/api/user/${dated.data.id}`)).data.data.expires).toBe('2031-01-15 00:00:00')
    })

    it.each([
      [{ username: 'no-email' }, 'email'],
      [{ email: 'no-username@example.com' }, 'username'],
      [{ email: 'not-an-email', username: 'valid_name' }, 'email'],
      [{ email: 42, username: 'valid_name' }, 'email'],
      [{ email: 'ok@example.com', username: 'ab' }, 'username'],
      [{ email: 'ok@example.com', username: 'has space' }, 'username'],
      [{ email: 'ok@example.com', username: 'u'.repeat(33) }, 'username'],
      [{ email: 'ok@example.com', username: 'valid_name', password: 'short' }, 'password'],
      [{ email: 'ok@example.com', username: 'valid_name', password: 12345678 }, 'password'],
      [{ email: 'ok@example.com', username: 'valid_name', planid: 'pro' }, 'planid'],
      [{ email: 'ok@example.com', username: 'valid_name', planid: 0 }, 'planid'],
      [{ email: 'ok@example.com', username: 'valid_name', expiration: 'tomorrow' }, 'expiration'],
      [{ email: 'ok@example.com', username: 'valid_name', expiration: '2030-02-30' }, 'expiration'],
      [{ email: 'ok@example.com', username: 'valid_name', expiration: '2030-01-01 25:00:00' }, 'expiration'],
      [{ email: 'ok@example.com', username: 'valid_name', admin: 'yes' }, 'admin'],
    ])('refuses %j with a 400 naming %s', async (body, field) => {
      const response = await adminApi('POST', '/api/user/add', body)
      expect(response.statusCode).toBe(400)
      expect(response.data.error).toBe(1)
      expect(response.data.code).toBe('validation_failed')
      expect(response.data.message).toContain(`"${field}"`)
    })

    it('refuses a taken e-mail or username, and an unknown plan', async () => {
      const email = await adminApi('POST', '/api/user/add', { email: member.email.toUpperCase(), username: 'fresh_name' })
      expect(email.statusCode).toBe(400)
      expect(email.data).toEqual({ error: 1, message: 'An account with this e-mail address already exists.', code: 'duplicate', field: 'email' })
      const username = await adminApi('POST', '/api/user/add', { email: 'fresh@example.com', username: member.username })
      expect(username.statusCode).toBe(400)
      expect(username.data.message).toBe('An account with this username already exists.')
      const plan = await adminApi('POST', '/api/user/add', { email: 'fresh@example.com', username: 'fresh_name', planid: 999999 })
      expect(plan.statusCode).toBe(404)
      expect(plan.data.message).toBe('Plan not found. Please try again.')
    })

    it('lists users newest first with the envelope and pages', async () => {
      const isolated = await createTestApp()
      try {
        const root = await createAccount(isolated, { isAdmin: true })
        const api = apiClient(isolated.app, root.apiKey)
        const names = ['page_one', 'page_two', 'page_three']
        for (const name of names) await api('POST', '/api/user/add', { email: `${name}@example.com`, username: name })
        const first = await api('GET', '/api/users?limit=2')
        expect(first.statusCode).toBe(200)
        expect(first.data.error).toBe('0')
        expect(first.data.data).toMatchObject({ result: 4, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 2 })
        expect(first.data.data.users.map((user: { username: string }) => user.username)).toEqual(['page_three', 'page_two'])
        expect(Object.keys(first.data.data.users[0]).sort()).toEqual(
          ['admin', 'avatar', 'email', 'expires', 'id', 'planid', 'registered', 'status', 'suspended', 'username'],
        )
        const second = await api('GET', '/api/users?limit=2&page=2')
        expect(second.data.data).toMatchObject({ currentpage: 2, nextpage: null })
        expect(second.data.data.users.map((user: { username: string }) => user.username)).toEqual(['page_one', root.username])
        expect((await api('GET', '/api/users?limit=2&page=5')).data.data.users).toEqual([])
        expect((await api('GET', '/api/users?limit=0')).statusCode).toBe(400)
        expect((await api('GET', '/api/users?page=x')).statusCode).toBe(400)
      } finally {
        await isolated.close()
      }
    })

    it('deletes a user with everything they own; their key stops working', async () => {
      const doomed = await createAccount(context)
      const doomedApi = apiClient(context.app, doomed.apiKey)
      const campaign = await doomedApi('POST', '/api/campaign/add', { name: 'Owned by doomed' })
      expect(campaign.statusCode).toBe(201)
      const deleted = await adminApi('DELETE', `/api/user/${doomed.id}/delete`)
      expect(deleted.statusCode).toBe(200)
      expect(deleted.data).toEqual({ error: 0, message: 'User has been deleted successfully.' })
      expect((await doomedApi('GET', '/api/account')).statusCode).toBe(401)
      const db = context.database.db
      expect(await db.selectFrom('campaigns').select('id').where('account_id', '=', doomed.id).execute()).toEqual([])
      expect(await db.selectFrom('api_keys').select('id').where('account_id', '=', doomed.id).execute()).toEqual([])
      const again = await adminApi('DELETE', `/api/user/${doomed.id}/delete`)
      expect(again.statusCode).toBe(404)
      expect(again.data.message).toBe('User not found. Please try again.')
    })

    it('does not let an admin delete or suspend themself', async () => {
      const deleteSelf = await adminApi('DELETE', `/api/user/${admin.id}/delete`)
      expect(deleteSelf.statusCode).toBe(400)
      expect(deleteSelf.data).toEqual({ error: 1, message: 'You cannot delete your own account.', code: 'validation_failed' })
      const suspendSelf = await adminApi('PUT', `/api/user/${admin.id}/suspend`)
      expect(suspendSelf.statusCode).toBe(400)
      expect(suspendSelf.data.message).toBe('You cannot suspend your own account.')
      expect((await adminApi('GET', '/api/account')).statusCode).toBe(200)
    })

    it('suspends (the key answers 403) and unsuspends a user', async () => {
      const target = await createAccount(context)
      const targetApi = apiClient(context.app, target.apiKey)
      const suspended = await adminApi('PUT', `/api/user/${target.id}/suspend`)
      expect(suspended.statusCode).toBe(200)
      expect(suspended.data).toEqual({ error: 0, message: 'User has been suspended successfully.' })
      expect((await adminApi('GET', `/api/user/${target.id}`)).data.data.suspended).toBe(true)
      const refused = await targetApi('GET', '/api/account')
      expect(refused.statusCode).toBe(403)
      expect(refused.data).toEqual(FORBIDDEN)
      const lifted = await adminApi('PUT', `/api/user/${target.id}/unsuspend`)
      expect(lifted.data).toEqual({ error: 0, message: 'User has been unsuspended successfully.' })
      expect((await targetApi('GET', '/api/account')).statusCode).toBe(200)
    })

    it('answers 404 and 400 on the id-taking user endpoints', async () => {
      for (const [method, path] of [['DELETE', 'delete'], ['PUT', 'suspend'], ['PUT', 'unsuspend']] as const) {
        const missing = await adminApi(method, `/api/user/999999/${path}`)
        expect(missing.statusCode, path).toBe(404)
        expect(missing.data.message).toBe('User not found. Please try again.')
        expect((await adminApi(method, `/api/user/abc/${path}`)).statusCode, path).toBe(400)
      }
    })
  })

  describe('plans', () => {
    it('lists plans with apirate, limits and the default flag, newest first, paged', async () => {
      const isolated = await createTestApp()
      try {
        const root = await createAccount(isolated, { isAdmin: true })
        const api = apiClient(isolated.app, root.apiKey)
        const db = isolated.database.db
        const limited = await db
          .insertInto('plans')
          .values({ name: 'Starter', code: 'starter', apirate: 10, limits: '{"campaigns":2,"pixels":0,"bogus":"x"}', is_default: 0, created_at: '2026-01-01 00:00:00' })
          .returning('id')
          .executeTakeFirstOrThrow()
        const response = await api('GET', '/api/plans')
        expect(response.statusCode).toBe(200)
        expect(response.data).toEqual({
          error: '0',
          data: {
            result: 2,
            perpage: 15,
            currentpage: 1,
            nextpage: null,
            maxpage: 1,
            plans: [
              { id: limited.id, name: 'Starter', code: 'starter', apirate: 10, limits: { campaigns: 2, pixels: 0 }, default: false },
              { id: expect.any(Number), name: 'Pro', code: 'pro', apirate: null, limits: {}, default: true },
            ],
          },
        })
        const paged = await api('GET', '/api/plans?limit=1&page=2')
        expect(paged.data.data).toMatchObject({ result: 2, perpage: 1, currentpage: 2, nextpage: null, maxpage: 2 })
        expect(paged.data.data.plans.map((plan: { name: string }) => plan.name)).toEqual(['Pro'])
      } finally {
        await isolated.close()
      }
    })

    it('moves a user to a plan, which changes their status and rate limit', async () => {
      const planId = await insertPlan('Mover', 3, {})
      const target = await createAccount(context)
      const moved = await adminApi('PUT', `/api/plan/${planId}/user/${target.id}`)
      expect(moved.statusCode).toBe(200)
      expect(moved.data).toEqual({ error: 0, message: 'Plan has been updated for the user.' })
      const account = await apiClient(context.app, target.apiKey)('GET', '/api/account')
      expect(account.data.data).toMatchObject({ status: 'mover', planid: planId })
      expect(account.headers['x-ratelimit-limit']).toBe('3')
    })

    it('answers 404 for an unknown plan or user and 400 for bad ids', async () => {
      const plans = await adminApi('GET', '/api/plans?limit=1')
      const planId = plans.data.data.plans[0].id
      const noPlan = await adminApi('PUT', `/api/plan/999999/user/${member.id}`)
      expect(noPlan.statusCode).toBe(404)
      expect(noPlan.data.message).toBe('Plan not found. Please try again.')
      const noUser = await adminApi('PUT', `/api/plan/${planId}/user/999999`)
      expect(noUser.statusCode).toBe(404)
      expect(noUser.data.message).toBe('User not found. Please try again.')
      expect((await adminApi('PUT', `/api/plan/x/user/${member.id}`)).statusCode).toBe(400)
      expect((await adminApi('PUT', `/api/plan/${planId}/user/0`)).statusCode).toBe(400)
    })
  })
})
