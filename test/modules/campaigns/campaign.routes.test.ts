import { describe, expect, it } from 'vitest'
import { apiClient, createAccount, createTestApp, PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'

describe('campaign endpoints', () => {
  const { context, owner, api, otherApi } = useTestApp()

  it('creates a campaign with the spec quirk `domain` plus `campaign` and `name`', async () => {
    const response = await api('POST', '/api/campaign/add', { name: 'Autumn sale', slug: 'autumn-sale', public: true })
    expect(response.statusCode).toBe(201)
    expect(response.data).toEqual({
      error: 0,
      id: expect.any(Number),
      domain: 'Autumn sale',
      campaign: 'Autumn sale',
      name: 'Autumn sale',
      public: true,
      rotator: `${PUBLIC_URL}/r/autumn-sale`,
      list: `${PUBLIC_URL}/u/${owner.username}/autumn-sale-${response.data.id}`,
      views: 0,
    })
  })

  it('names a campaign after its slug, else `Campaign <id>`, and has no rotator without a slug', async () => {
    const fromSlug = await api('POST', '/api/campaign/add', { slug: 'named-by-slug' })
    expect(fromSlug.data.name).toBe('named-by-slug')
    expect(fromSlug.data.public).toBe(false)
    const bare = await api('POST', '/api/campaign/add')
    expect(bare.statusCode).toBe(201)
    expect(bare.data.name).toBe(`Campaign ${bare.data.id}`)
    expect(bare.data.rotator).toBe(false)
    expect(bare.data.list).toBe(`${PUBLIC_URL}/u/${owner.username}/campaign-${bare.data.id}-${bare.data.id}`)
  })

  it('refuses a duplicate name in the same account but not in another account', async () => {
    await api('POST', '/api/campaign/add', { name: 'Dup name' })
    const again = await api('POST', '/api/campaign/add', { name: 'Dup name' })
    expect(again.statusCode).toBe(400)
    expect(again.data).toEqual({ error: 1, message: 'You already have a campaign with that name.', code: 'duplicate', field: 'name' })
    expect((await otherApi('POST', '/api/campaign/add', { name: 'Dup name' })).statusCode).toBe(201)
  })

  it('refuses a slug used anywhere in the service', async () => {
    await api('POST', '/api/campaign/add', { name: 'Has slug', slug: 'shared-slug' })
    const taken = await otherApi('POST', '/api/campaign/add', { name: 'Wants slug', slug: 'shared-slug' })
    expect(taken.statusCode).toBe(400)
    expect(taken.data.message).toBe('This slug is currently not available. Please choose another one.')
  })

  it.each([
    [{ name: 'x' }, 'name'],
    [{ name: 'y'.repeat(101) }, 'name'],
    [{ name: 42 }, 'name'],
    [{ slug: 'ab' }, 'slug'],
    [{ slug: 'has space' }, 'slug'],
    [{ slug: 'x'.repeat(65) }, 'slug'],
    [{ public: 'yes' }, 'public'],
    [{ public: 1 }, 'public'],
  ])('rejects bad input %j with a 400 naming %s', async (body, field) => {
    const response = await api('POST', '/api/campaign/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data.error).toBe(1)
    expect(response.data.code).toBe('validation_failed')
    expect(response.data.message).toContain(`"${field}"`)
  })

  it('ignores unknown body fields', async () => {
    const response = await api('POST', '/api/campaign/add', { name: 'With extras', color: '#fff', evil: { a: 1 } })
    expect(response.statusCode).toBe(201)
    expect(response.data).not.toHaveProperty('evil')
    expect(response.data).not.toHaveProperty('color')
  })

  it('updates name, slug and public; name is required; empty slug removes the rotator', async () => {
    const created = await api('POST', '/api/campaign/add', { name: 'Before', slug: 'before-slug' })
    const id = created.data.id
    const updated = await api('PUT', `/api/campaign/${id}/update`, { name: 'After', slug: 'after-slug', public: true })
    expect(updated.statusCode).toBe(200)
    expect(updated.data).toMatchObject({ error: 0, id, domain: 'After', name: 'After', public: true, rotator: `${PUBLIC_URL}/r/after-slug` })
    const noName = await api('PUT', `/api/campaign/${id}/update`, { slug: 'other' })
    expect(noName.statusCode).toBe(400)
    expect(noName.data.message).toContain('"name"')
    const cleared = await api('PUT', `/api/campaign/${id}/update`, { name: 'After', slug: '' })
    expect(cleared.data.rotator).toBe(false)
    expect(cleared.data.public).toBe(true)
  })

  it('keeps names unique on update', async () => {
    await api('POST', '/api/campaign/add', { name: 'Taken on update' })
    const other = await api('POST', '/api/campaign/add', { name: 'Renamed later' })
    const clash = await api('PUT', `/api/campaign/${other.data.id}/update`, { name: 'Taken on update' })
    expect(clash.statusCode).toBe(400)
    expect(clash.data.message).toBe('You already have a campaign with that name.')
    const same = await api('PUT', `/api/campaign/${other.data.id}/update`, { name: 'Renamed later' })
    expect(same.statusCode).toBe(200)
  })

  it('lists with the envelope, newest first, paged', async () => {
    const context2 = await createTestApp()
    try {
      const account = await createAccount(context2)
      const client = apiClient(context2.app, account.apiKey)
      for (const name of ['one', 'two', 'three', 'four']) await client('POST', '/api/campaign/add', { name })
      const first = await client('GET', '/api/campaigns?limit=3')
      expect(first.statusCode).toBe(200)
      expect(first.data.error).toBe('0')
      expect(first.data.data).toMatchObject({ result: 4, perpage: 3, currentpage: 1, nextpage: 2, maxpage: 2 })
      expect(first.data.data.campaigns.map((c: { name: string }) => c.name)).toEqual(['four', 'three', 'two'])
      expect(Object.keys(first.data.data.campaigns[0]).sort()).toEqual(['id', 'list', 'name', 'public', 'rotator', 'views'])
      const second = await client('GET', '/api/campaigns?limit=3&page=2')
      expect(second.data.data).toMatchObject({ result: 4, currentpage: 2, nextpage: null, maxpage: 2 })
      expect(second.data.data.campaigns).toHaveLength(1)
      const past = await client('GET', '/api/campaigns?limit=3&page=9')
      expect(past.data.data.campaigns).toEqual([])
      expect(past.data.data.nextpage).toBeNull()
    } finally {
      await context2.close()
    }
  })

  it('deletes a campaign; a second delete is a 404', async () => {
    const created = await api('POST', '/api/campaign/add', { name: 'Doomed' })
    const deleted = await api('DELETE', `/api/campaign/${created.data.id}/delete`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.data).toEqual({ error: 0, message: 'Campaign has been deleted successfully.' })
    const again = await api('DELETE', `/api/campaign/${created.data.id}/delete`)
    expect(again.statusCode).toBe(404)
    expect(again.data.message).toBe('Campaign not found. Please try again.')
  })

  it('answers 404 for assigning a link that does not exist, and for an unknown campaign', async () => {
    const created = await api('POST', '/api/campaign/add', { name: 'Assign target' })
    const noLink = await api('POST', `/api/campaign/${created.data.id}/assign/12345`)
    expect(noLink.statusCode).toBe(404)
    expect(noLink.data.message).toBe('Link not found. Please try again.')
    const noCampaign = await api('POST', '/api/campaign/999999/assign/1')
    expect(noCampaign.statusCode).toBe(404)
    expect(noCampaign.data.message).toBe('Campaign not found. Please try again.')
  })

  it('never shows or touches another account’s campaign', async () => {
    const mine = await api('POST', '/api/campaign/add', { name: 'Private to owner' })
    const id = mine.data.id
    expect((await otherApi('PUT', `/api/campaign/${id}/update`, { name: 'Hijack' })).statusCode).toBe(404)
    expect((await otherApi('DELETE', `/api/campaign/${id}/delete`)).statusCode).toBe(404)
    expect((await otherApi('POST', `/api/campaign/${id}/assign/1`)).statusCode).toBe(404)
    const list = await otherApi('GET', '/api/campaigns?limit=100')
    expect(list.data.data.campaigns.map((c: { id: number }) => c.id)).not.toContain(id)
  })

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses the path id %s with a 400', async (id) => {
    const response = await api('DELETE', `/api/campaign/${id}/delete`)
    expect(response.statusCode).toBe(400)
    expect(response.data.code).toBe('validation_failed')
  })

  it('enforces the plan limit on campaigns', async () => {
    const db = context.database.db
    const plan = await db.insertInto('plans').values({ name: 'Tiny', code: 'tiny', apirate: null, limits: '{"campaigns":1}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
    const limited = await createAccount(context, { plan: plan.id })
    const client = apiClient(context.app, limited.apiKey)
    expect((await client('POST', '/api/campaign/add', { name: 'first' })).statusCode).toBe(201)
    const second = await client('POST', '/api/campaign/add', { name: 'second' })
    expect(second.statusCode).toBe(403)
    expect(second.data.code).toBe('plan_limit_reached')
  })
})
