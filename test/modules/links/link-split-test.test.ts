// Split tests (issue 23): 2 to 5 weighted destinations; a visitor keeps the variant all day;
// clicks per variant in the link's details; a winner ends the test. Through the API and the
// visitors' route, on both databases.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'

describe('split tests', () => {
  const { context, api } = useTestApp()
  const aliasOf = (shorturl: string) => shorturl.split('/').pop()!

  async function destinationFor(alias: string, address: string): Promise<string> {
    const response = await visit(context.app, `/${alias}`, { headers: { 'user-agent': BROWSER }, remoteAddress: address })
    expect(response.statusCode).toBe(302)
    return response.headers.location as string
  }

  it('shares visitors among the variants, keeps each visitor on one, counts clicks per variant, and ends with a winner', async () => {
    const created = await api('POST', '/api/url/add', {
      url: 'https://example.com/original',
      variants: [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 3 }],
      utm: { campaign: 'test' },
    })
    expect(created.statusCode).toBe(201)
    const alias = aliasOf(created.data.shorturl)
    const seen = new Map<string, number>()
    for (let visitor = 1; visitor <= 40; visitor += 1) {
      const address = `203.0.113.${visitor}`
      const first = await destinationFor(alias, address)
      // The same visitor again: the same variant.
      expect(await destinationFor(alias, address)).toBe(first)
      seen.set(first, (seen.get(first) ?? 0) + 2)
    }
    expect([...seen.keys()].sort()).toEqual(['https://example.com/a?utm_campaign=test', 'https://example.com/b?utm_campaign=test'])
    // Weight 3 of 4 gets most visitors.
    expect(seen.get('https://example.com/b?utm_campaign=test')!).toBeGreaterThan(seen.get('https://example.com/a?utm_campaign=test')!)

    await context.clicks.flush()
    const read = await api('GET', `/api/url/${created.data.id}`)
    expect(read.data.details.variants).toEqual([
      { url: 'https://example.com/a', weight: 1, clicks: seen.get('https://example.com/a?utm_campaign=test') },
      { url: 'https://example.com/b', weight: 3, clicks: seen.get('https://example.com/b?utm_campaign=test') },
    ])
    expect(read.data.data.clicks).toBe(80)

    const winner = await api('POST', `/api/url/${created.data.id}/winner`, { variant: 1 })
    expect(winner.statusCode).toBe(200)
    expect(winner.data).toMatchObject({ error: 0, id: created.data.id, shorturl: created.data.shorturl })
    const after = await api('GET', `/api/url/${created.data.id}`)
    expect(after.data.details).toMatchObject({ longurl: 'https://example.com/b', variants: null, utm: { campaign: 'test' } })
    expect(await destinationFor(alias, '203.0.113.1')).toBe('https://example.com/b?utm_campaign=test')
    const audit = await context.database.db.selectFrom('audit_log').select('action').where('resource_id', '=', created.data.id).where('resource', '=', 'link').orderBy('id').execute()
    expect(audit.map((row) => row.action)).toEqual(['link.created', 'link.winner_chosen'])
  })

  it('replaces the variants on update and ends the test with []', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/original' })
    const { id } = created.data
    const alias = aliasOf(created.data.shorturl)
    await api('PUT', `/api/url/${id}/update`, { variants: [{ url: 'https://example.com/x', weight: 1 }, { url: 'https://example.com/y', weight: 1 }] })
    expect(['https://example.com/x', 'https://example.com/y']).toContain(await destinationFor(alias, '198.51.100.1'))
    expect((await api('GET', `/api/url/${id}`)).data.details.variants).toHaveLength(2)
    // null leaves the test running (ADR 013); [] ends it.
    await api('PUT', `/api/url/${id}/update`, { variants: null })
    expect((await api('GET', `/api/url/${id}`)).data.details.variants).toHaveLength(2)
    await api('PUT', `/api/url/${id}/update`, { variants: [] })
    expect(await destinationFor(alias, '198.51.100.1')).toBe('https://example.com/original')
    expect((await api('GET', `/api/url/${id}`)).data.details.variants).toBeNull()
  })

  it.each([
    ['one variant', [{ url: 'https://example.com/a', weight: 1 }], 'variants'],
    ['six variants', Array.from({ length: 6 }, (_, index) => ({ url: `https://example.com/${index}`, weight: 1 })), 'variants'],
    ['a weight of 0', [{ url: 'https://example.com/a', weight: 0 }, { url: 'https://example.com/b', weight: 1 }], 'variants.0.weight'],
    ['a weight that is no whole number', [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 1.5 }], 'variants.1.weight'],
    ['a negative weight', [{ url: 'https://example.com/a', weight: -2 }, { url: 'https://example.com/b', weight: 1 }], 'variants.0.weight'],
    ['a weight given as text', [{ url: 'https://example.com/a', weight: '2' }, { url: 'https://example.com/b', weight: 1 }], 'variants.0.weight'],
    ['a destination of another scheme', [{ url: 'https://example.com/a', weight: 1 }, { url: 'javascript:alert(1)', weight: 1 }], 'variants.1.url'],
    ['no list', 'https://example.com/a', 'variants'],
  ])('refuses %s with a 400 naming the field, on create and update', async (_case, variants, field) => {
    const create = await api('POST', '/api/url/add', { url: 'https://example.com/', variants })
    expect(create.statusCode).toBe(400)
    expect(create.data).toMatchObject({ error: 1, code: 'validation_failed', field })
    const link = await api('POST', '/api/url/add', { url: 'https://example.com/' })
    const update = await api('PUT', `/api/url/${link.data.id}/update`, { variants })
    expect(update.statusCode).toBe(400)
    expect(update.data).toMatchObject({ error: 1, code: 'validation_failed', field })
  })

  it('refuses a winner of a link without a split test, or a position it does not have', async () => {
    const plain = await api('POST', '/api/url/add', { url: 'https://example.com/' })
    const none = await api('POST', `/api/url/${plain.data.id}/winner`, { variant: 0 })
    expect(none.statusCode).toBe(400)
    expect(none.data.field).toBe('variant')
    const tested = await api('POST', '/api/url/add', { url: 'https://example.com/', variants: [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 1 }] })
    for (const variant of [2, -1, 'a']) {
      const response = await api('POST', `/api/url/${tested.data.id}/winner`, { variant })
      expect(response.statusCode).toBe(400)
      expect(response.data.field).toBe('variant')
    }
    expect((await api('POST', '/api/url/999999/winner', { variant: 0 })).statusCode).toBe(404)
  })
})
