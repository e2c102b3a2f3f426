// What every resource an account owns answers alike (branded domains, pixels, CTA overlays, splash
// pages): deleting, another
// account's record, a bad path id, the list envelope and the plan's limit, written once over a
// table. What is a resource's own (its fields, its validation, its uniqueness) stays in its module's
// route tests (test/modules/<resource>/*.routes.test.ts).
import { describe, expect, it } from 'vitest'
import { apiClient, createAccount, useTestApp, type ApiClient } from '../helpers/test-app.js'

interface OwnedResource {
  /** As the paths spell it: /api/{name}/add, /api/{name}/{id}/update. */
  name: string
  /** As the messages spell it ("Domain not found. Please try again."). */
  label: string
  /** The list's path (/api/{list}). */
  list: string
  /** The key of the list's items. */
  plural: string
  /** The plan limit's resource. */
  limit: string
  /** Its table (what another account's refused update must leave as it was). */
  table: 'domains' | 'pixels' | 'overlays' | 'splash_pages'
  /** The keys of a listed item. */
  listed: string[]
  /** A body that creates one, different for each `n`. */
  create(n: number): Record<string, unknown>
  /** A body that changes one. */
  update: Record<string, unknown>
  /** What tells one apart, read the same from the body that made it and from its listed item (to check the order). */
  labelOf(item: Record<string, unknown>): unknown
}

const RESOURCES: OwnedResource[] = [
  {
    name: 'domain',
    table: 'domains',
    label: 'Domain',
    list: 'domains',
    plural: 'domains',
    limit: 'domains',
    // The spec's four, and issue 43's additions: the proof of control and the certificate.
    listed: ['certificate', 'domain', 'id', 'redirect404', 'redirectroot', 'status', 'verification'],
    create: (n) => ({ domain: `https://go${n}.owned.example`, redirectroot: 'https://mine.example/' }),
    update: { redirectroot: 'https://theirs.example/' },
    labelOf: (item) => item.domain,
  },
  {
    name: 'pixel',
    table: 'pixels',
    label: 'Pixel',
    list: 'pixels',
    plural: 'pixels',
    limit: 'pixels',
    listed: ['date', 'id', 'name', 'tag', 'type'],
    create: (n) => ({ type: 'fbpixel', name: `Pixel ${n}`, tag: String(2_000_000_000_000 + n) }),
    update: { name: 'Theirs' },
    labelOf: (item) => item.name,
  },
  {
    name: 'overlay',
    table: 'overlays',
    label: 'CTA overlay',
    list: 'overlay',
    plural: 'cta',
    limit: 'overlays',
    listed: ['date', 'id', 'name', 'type'],
    create: (n) => ({ type: 'message', name: `Overlay ${n}`, message: 'Get 20% off this week' }),
    update: { name: 'Theirs' },
    labelOf: (item) => item.name,
  },
  {
    name: 'splash',
    table: 'splash_pages',
    label: 'Splash page',
    list: 'splash',
    plural: 'splash',
    limit: 'splash',
    listed: ['date', 'id', 'name'],
    create: (n) => ({ name: `Splash ${n}`, title: 'Our new app is out' }),
    update: { title: 'Theirs' },
    labelOf: (item) => item.name,
  },
]

describe.each(RESOURCES)('what every owned resource answers alike: $list', (resource) => {
  const { context, api, otherApi } = useTestApp()
  let counter = 0
  const nextBody = () => resource.create((counter += 1))
  const notFound = `${resource.label} not found. Please try again.`

  async function create(client: ApiClient): Promise<number> {
    const created = await client('POST', `/api/${resource.name}/add`, nextBody())
    expect(created.statusCode, JSON.stringify(created.data)).toBe(201)
    return created.data.id as number
  }

  async function listAll(client: ApiClient): Promise<Array<Record<string, unknown>>> {
    return (await client('GET', `/api/${resource.list}?limit=100`)).data.data[resource.plural]
  }

  it('deletes one; a second delete and an update of it are 404 in the envelope', async () => {
    const id = await create(api)
    const deleted = await api('DELETE', `/api/${resource.name}/${id}/delete`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.data).toEqual({ error: 0, message: `${resource.label} has been deleted successfully.` })
    const again = await api('DELETE', `/api/${resource.name}/${id}/delete`)
    expect(again.statusCode).toBe(404)
    expect(again.data).toEqual({ error: 1, message: notFound, code: 'not_found' })
    const update = await api('PUT', `/api/${resource.name}/${id}/update`, resource.update)
    expect(update.statusCode).toBe(404)
    expect(update.data).toEqual({ error: 1, message: notFound, code: 'not_found' })
    expect((await api('PUT', `/api/${resource.name}/999999/update`, resource.update)).data.message).toBe(notFound)
  })

  it("never shows or touches another account's", async () => {
    const id = await create(api)
    const stored = () => context.database.db.selectFrom(resource.table).selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const before = await stored()
    const update = await otherApi('PUT', `/api/${resource.name}/${id}/update`, resource.update)
    expect(update.statusCode).toBe(404)
    expect(update.data.message).toBe(notFound)
    expect((await otherApi('PUT', `/api/${resource.name}/${id}/update`, {})).statusCode).toBe(404)
    expect((await otherApi('DELETE', `/api/${resource.name}/${id}/delete`)).statusCode).toBe(404)
    expect((await listAll(otherApi)).map((item) => item.id)).not.toContain(id)
    expect((await listAll(api)).map((item) => item.id)).toContain(id)
    expect(await stored()).toEqual(before)
  })

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses the path id %s with a 400 naming "id"', async (id) => {
    for (const [method, url] of [['PUT', `/api/${resource.name}/${id}/update`], ['DELETE', `/api/${resource.name}/${id}/delete`]] as const) {
      const response = await api(method, url, {})
      expect(response.statusCode).toBe(400)
      expect(response.data.code).toBe('validation_failed')
      expect(response.data.message).toContain('"id"')
    }
  })

  it('lists with the envelope, newest first, paged', async () => {
    const client = apiClient(context.app, (await createAccount(context)).apiKey)
    const bodies = [nextBody(), nextBody(), nextBody(), nextBody()]
    for (const body of bodies) expect((await client('POST', `/api/${resource.name}/add`, body)).statusCode).toBe(201)
    // Newest first: the last one added leads.
    const labels = bodies.map(resource.labelOf).reverse()
    const first = await client('GET', `/api/${resource.list}?limit=3`)
    expect(first.statusCode).toBe(200)
    expect(first.data.error).toBe('0')
    expect(first.data.data).toMatchObject({ result: 4, perpage: 3, currentpage: 1, nextpage: 2, maxpage: 2 })
    expect(first.data.data[resource.plural].map(resource.labelOf)).toEqual(labels.slice(0, 3))
    expect(Object.keys(first.data.data[resource.plural][0]).sort()).toEqual(resource.listed)
    const second = await client('GET', `/api/${resource.list}?limit=3&page=2`)
    expect(second.data.data).toMatchObject({ result: 4, currentpage: 2, nextpage: null, maxpage: 2 })
    expect(second.data.data[resource.plural].map(resource.labelOf)).toEqual(labels.slice(3))
    expect((await client('GET', `/api/${resource.list}?limit=3&page=9`)).data.data[resource.plural]).toEqual([])
    for (const query of ['page=0', 'page=-2', 'limit=0', 'limit=abc']) expect((await client('GET', `/api/${resource.list}?${query}`)).statusCode, query).toBe(400)
  })

  it("enforces the plan's limit", async () => {
    const plan = await context.database.db
      .insertInto('plans')
      .values({ name: `One ${resource.name}`, code: `one-${resource.name}`, apirate: null, limits: JSON.stringify({ [resource.limit]: 1 }), is_default: 0, created_at: '2026-01-01 00:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const client = apiClient(context.app, (await createAccount(context, { plan: plan.id })).apiKey)
    await create(client)
    const second = await client('POST', `/api/${resource.name}/add`, nextBody())
    expect(second.statusCode).toBe(403)
    expect(second.data.code).toBe('plan_limit_reached')
  })
})
