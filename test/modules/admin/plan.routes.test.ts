// Plan administration through the API: create, change and delete plans (admin only), with the
// rules the dashboard's plan form mirrors: unique name and code, a positive rate or none, and
// limits that are whole numbers on known resources; a plan in use cannot be deleted.
import { beforeAll, describe, expect, it } from 'vitest'
import { apiClient, createAccount, type ApiClient, type TestAccount, useTestApp } from '../../helpers/test-app.js'
import { uniqueName } from '../../helpers/factories.js'

const FORBIDDEN = { error: 1, message: 'You do not have permission to access this endpoint.', code: 'forbidden' }

describe('plan administration endpoints', () => {
  let adminApi: ApiClient
  let member: TestAccount
  let memberApi: ApiClient

  const { context } = useTestApp()

  beforeAll(async () => {
    const admin = await createAccount(context, { isAdmin: true })
    adminApi = apiClient(context.app, admin.apiKey)
    member = await createAccount(context)
    memberApi = apiClient(context.app, member.apiKey)
  })

  /** A name and a code nobody else in this file uses. */
  function fresh(prefix: string) {
    const name = uniqueName(prefix)
    return { name, code: name.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 32) }
  }

  async function addPlan(body: Record<string, unknown>): Promise<number> {
    const response = await adminApi('POST', '/api/plan/add', body)
    expect(response.statusCode, JSON.stringify(response.data)).toBe(201)
    return response.data.data.id
  }

  it.each([
    ['POST', '/api/plan/add', { name: 'Sneaky', code: 'sneaky' }],
    ['PUT', '/api/plan/1/update', { name: 'Sneaky' }],
    ['DELETE', '/api/plan/1/delete', undefined],
    // Refused before validation: a non-admin learns nothing about ids or body rules.
    ['PUT', '/api/plan/abc/update', { apirate: 'x' }],
  ])('%s %s answers 403 to a non-admin', async (method, url, body) => {
    const response = await memberApi(method, url, body)
    expect(response.statusCode).toBe(403)
    expect(response.data).toEqual(FORBIDDEN)
  })

  it('creates a plan (201) whose limits bind the accounts put on it', async () => {
    const { name, code } = fresh('Small')
    const response = await adminApi('POST', '/api/plan/add', { name: ` ${name} `, code, apirate: 12, limits: { campaigns: 1, links: 0 } })
    expect(response.statusCode).toBe(201)
    expect(response.data).toEqual({ error: 0, data: { id: expect.any(Number), name, code, apirate: 12, limits: { campaigns: 1, links: 0 }, default: false } })
    const listed = await adminApi('GET', '/api/plans?limit=100')
    expect(listed.data.data.plans).toContainEqual(response.data.data)

    const user = await createAccount(context)
    const userApi = apiClient(context.app, user.apiKey)
    expect((await adminApi('PUT', `/api/plan/${response.data.data.id}/user/${user.id}`)).statusCode).toBe(200)
    const usage = await userApi('GET', '/api/account/limits')
    expect(usage.data.data.resources).toContainEqual({ resource: 'campaigns', used: 0, limit: 1 })
    expect((await userApi('POST', '/api/campaign/add', { name: 'First' })).statusCode).toBe(201)
    const second = await userApi('POST', '/api/campaign/add', { name: 'Second' })
    expect(second.statusCode).toBe(403)
    expect(usage.headers['x-ratelimit-limit']).toBe('12')
  })

  it('creates a plan without a rate or limits: the server default and no limit', async () => {
    const { name, code } = fresh('Open')
    const response = await adminApi('POST', '/api/plan/add', { name, code })
    expect(response.statusCode).toBe(201)
    expect(response.data.data).toMatchObject({ apirate: null, limits: {} })
  })

  it.each([
    [{ code: 'nameless' }, 'name'],
    [{ name: 'x', code: 'short-name' }, 'name'],
    [{ name: 'No code' }, 'code'],
    [{ name: 'Bad code', code: 'has space' }, 'code'],
    [{ name: 'Zero rate', code: 'zero-rate', apirate: 0 }, 'apirate'],
    [{ name: 'Text rate', code: 'text-rate', apirate: 'fast' }, 'apirate'],
    [{ name: 'Half rate', code: 'half-rate', apirate: 1.5 }, 'apirate'],
    [{ name: 'Negative', code: 'negative', limits: { links: -1 } }, 'limits.links'],
    [{ name: 'Fraction', code: 'fraction', limits: { links: 2.5 } }, 'limits.links'],
    [{ name: 'Texty', code: 'texty', limits: { links: '3' } }, 'limits.links'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const response = await adminApi('POST', '/api/plan/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, code: 'validation_failed' })
    expect(response.data.message).toContain(`"${field}"`)
  })

  it('refuses a limit on an unknown resource and names the known ones', async () => {
    const response = await adminApi('POST', '/api/plan/add', { name: 'Unknown resource', code: 'unknown-res', limits: { widgets: 3 } })
    expect(response.statusCode).toBe(400)
    expect(response.data.message).toContain('"widgets" is not one')
    expect(response.data.message).toContain('campaigns')
  })

  it('refuses a taken name or code (400 duplicate), the default plan\'s included', async () => {
    const taken = fresh('Taken')
    await addPlan(taken)
    const sameName = await adminApi('POST', '/api/plan/add', { name: taken.name, code: 'other-code-1' })
    expect(sameName.statusCode).toBe(400)
    expect(sameName.data).toEqual({ error: 1, message: 'A plan with this name already exists.', code: 'duplicate', field: 'name' })
    const sameCode = await adminApi('POST', '/api/plan/add', { name: 'Another name', code: taken.code })
    expect(sameCode.data).toEqual({ error: 1, message: 'A plan with this code already exists.', code: 'duplicate', field: 'code' })
    const defaultCode = await adminApi('POST', '/api/plan/add', { name: 'Pro again', code: 'pro' })
    expect(defaultCode.statusCode).toBe(400)
  })

  it('updates name, code, rate and limits; absent fields stay; limits replace the set; accounts feel it at once', async () => {
    const original = fresh('Growing')
    const id = await addPlan({ ...original, apirate: 5, limits: { campaigns: 1, links: 2 } })
    const user = await createAccount(context)
    await adminApi('PUT', `/api/plan/${id}/user/${user.id}`)
    const userApi = apiClient(context.app, user.apiKey)
    expect((await userApi('GET', '/api/account/limits')).data.data.resources).toContainEqual({ resource: 'campaigns', used: 0, limit: 1 })

    const renamed = fresh('Grown')
    const response = await adminApi('PUT', `/api/plan/${id}/update`, { ...renamed, limits: { campaigns: 10 } })
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({ error: 0, data: { id, ...renamed, apirate: 5, limits: { campaigns: 10 }, default: false } })
    const after = await userApi('GET', '/api/account/limits')
    expect(after.data.data.resources).toContainEqual({ resource: 'campaigns', used: 0, limit: 10 })
    expect(after.data.data.resources).toContainEqual({ resource: 'links', used: 0, limit: null })
    expect((await userApi('GET', '/api/account')).data.data.status).toBe(renamed.code)

    // null returns to the server default; keeping its own name and code is no conflict.
    const unlimitedRate = await adminApi('PUT', `/api/plan/${id}/update`, { apirate: null, name: renamed.name, code: renamed.code })
    expect(unlimitedRate.data.data).toMatchObject({ apirate: null, limits: { campaigns: 10 } })
  })

  it('refuses an update to a taken name or code, bad values, and answers 404 and 400 for ids', async () => {
    const first = fresh('First')
    const second = fresh('Second')
    await addPlan(first)
    const id = await addPlan(second)
    expect((await adminApi('PUT', `/api/plan/${id}/update`, { name: first.name })).data.message).toBe('A plan with this name already exists.')
    expect((await adminApi('PUT', `/api/plan/${id}/update`, { code: first.code })).data.message).toBe('A plan with this code already exists.')
    const badRate = await adminApi('PUT', `/api/plan/${id}/update`, { apirate: -3 })
    expect(badRate.statusCode).toBe(400)
    expect(badRate.data.message).toContain('"apirate"')
    const badLimit = await adminApi('PUT', `/api/plan/${id}/update`, { limits: { qrcodes: -1 } })
    expect(badLimit.statusCode).toBe(400)
    const missing = await adminApi('PUT', '/api/plan/999999/update', { name: 'Whatever' })
    expect(missing.statusCode).toBe(404)
    expect(missing.data).toEqual({ error: 1, message: 'Plan not found. Please try again.', code: 'not_found' })
    expect((await adminApi('PUT', '/api/plan/abc/update', {})).statusCode).toBe(400)
  })

  it('deletes an unused plan, refuses one in use (400 plan_in_use) and the default plan', async () => {
    const unused = await addPlan(fresh('Unused'))
    const deleted = await adminApi('DELETE', `/api/plan/${unused}/delete`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.data).toEqual({ error: 0, message: 'Plan has been deleted successfully.' })
    expect((await adminApi('DELETE', `/api/plan/${unused}/delete`)).statusCode).toBe(404)

    const used = await addPlan(fresh('Used'))
    const user = await createAccount(context)
    await adminApi('PUT', `/api/plan/${used}/user/${user.id}`)
    const refused = await adminApi('DELETE', `/api/plan/${used}/delete`)
    expect(refused.statusCode).toBe(400)
    expect(refused.data).toEqual({ error: 1, message: 'This plan still has 1 account. Move them to another plan first.', code: 'plan_in_use' })
    const plans = await adminApi('GET', '/api/plans?limit=100')
    expect(plans.data.data.plans.map((plan: { id: number }) => plan.id)).toContain(used)

    const defaultPlan = plans.data.data.plans.find((plan: { default: boolean }) => plan.default)
    const refusedDefault = await adminApi('DELETE', `/api/plan/${defaultPlan.id}/delete`)
    expect(refusedDefault.statusCode).toBe(400)
    expect(refusedDefault.data.message).toBe('The default plan cannot be deleted: new accounts are put on it.')
  })
})
