import { describe, expect, it } from 'vitest'
import { apiClient, createAccount, PUBLIC_URL, useTestApp, type ApiClient } from '../../helpers/test-app.js'
import { createDomain, createLink, uniqueAlias } from '../../helpers/factories.js'

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('bio page endpoints', () => {

  const { context, owner, other, api, otherApi } = useTestApp()

  /** Creates a bio page through the endpoint under test and answers `{id, url}`. */
  async function createBio(client: ApiClient, body: Record<string, unknown>): Promise<{ id: number; url: string }> {
    const response = await client('POST', '/api/bio/add', body)
    expect(response.statusCode).toBe(201)
    return response.data
  }

  describe('create and read', () => {
    it('creates a bio page with every field and reads it back exactly', async () => {
      const alias = uniqueAlias('Jane')
      const created = await api('POST', '/api/bio/add', {
        name: 'Jane Doe',
        alias,
        description: 'Designer in Lisbon.',
        avatar: 'https://cdn.example.com/jane.png',
        blocks: [
          { title: 'Portfolio', url: 'https://jane.example.com/' },
          { title: 'Shop', url: 'http://shop.example.com/jane?ref=bio' },
          { title: 'Blog', url: 'https://blog.example.com/' },
        ],
      })
      expect(created.statusCode).toBe(201)
      expect(created.data).toEqual({ error: 0, id: expect.any(Number), url: `${PUBLIC_URL}/${alias}` })

      const read = await api('GET', `/api/bio/${created.data.id}`)
      expect(read.statusCode).toBe(200)
      expect(read.data).toEqual({
        error: 0,
        data: {
          id: created.data.id,
          alias,
          name: 'Jane Doe',
          description: 'Designer in Lisbon.',
          avatar: 'https://cdn.example.com/jane.png',
          url: `${PUBLIC_URL}/${alias}`,
          blocks: [
            { title: 'Portfolio', url: 'https://jane.example.com/' },
            { title: 'Shop', url: 'http://shop.example.com/jane?ref=bio' },
            { title: 'Blog', url: 'https://blog.example.com/' },
          ],
          date: expect.stringMatching(DATE_TIME),
          updated: expect.stringMatching(DATE_TIME),
          tags: [],
        },
      })
      expect(read.data.data.updated).toBe(read.data.data.date)
    })

    it('needs only a name: draws a 6-character unambiguous alias and defaults the rest', async () => {
      const created = await api('POST', '/api/bio/add', { name: 'Minimal' })
      expect(created.statusCode).toBe(201)
      const read = await api('GET', `/api/bio/${created.data.id}`)
      expect(read.data.data.alias).toMatch(/^[2-9a-hjkmnp-z]{6}$/)
      expect(created.data.url).toBe(`${PUBLIC_URL}/${read.data.data.alias}`)
      expect(read.data.data).toMatchObject({ name: 'Minimal', description: '', avatar: null, blocks: [] })
    })

    it('trims the name, the description and block titles', async () => {
      const { id } = await createBio(api, { name: '  Spaced  ', description: '  about me \n', blocks: [{ title: '  Go  ', url: 'https://example.com/' }] })
      const read = await api('GET', `/api/bio/${id}`)
      expect(read.data.data).toMatchObject({ name: 'Spaced', description: 'about me', blocks: [{ title: 'Go', url: 'https://example.com/' }] })
    })

    it('ignores unknown fields, in the body and in blocks', async () => {
      const { id } = await createBio(api, { name: 'Extras', evil: { a: 1 }, account_id: other.id, blocks: [{ title: 'A', url: 'https://a.example/', color: 'red', onclick: 'x()' }] })
      const read = await api('GET', `/api/bio/${id}`)
      expect(read.data.data).not.toHaveProperty('evil')
      expect(read.data.data.blocks).toEqual([{ title: 'A', url: 'https://a.example/' }])
      const stored = await context.database.db.selectFrom('bio_pages').select(['account_id', 'blocks']).where('id', '=', id).executeTakeFirstOrThrow()
      expect(stored.account_id).toBe(owner.id)
      expect(JSON.parse(stored.blocks)).toEqual([{ title: 'A', url: 'https://a.example/' }])
    })

    it('keeps 100 blocks in their order', async () => {
      const blocks = Array.from({ length: 100 }, (_, index) => ({ title: `Block ${index}`, url: `https://example.com/${index}` }))
      const { id } = await createBio(api, { name: 'Many blocks', blocks })
      expect((await api('GET', `/api/bio/${id}`)).data.data.blocks).toEqual(blocks)
    })

    it('answers 404 for an unknown id', async () => {
      const response = await api('GET', '/api/bio/987654')
      expect(response.statusCode).toBe(404)
      expect(response.data).toEqual({ error: 1, message: 'Bio page not found. Please try again.', code: 'not_found' })
    })

    it('needs an API key', async () => {
      const response = await apiClient(context.app, null)('POST', '/api/bio/add', { name: 'No key' })
      expect(response.statusCode).toBe(401)
      expect(response.data.error).toBe(1)
    })
  })

  describe('validation', () => {
    const url = 'https://example.com/'
    it.each([
      [{}, 'name'],
      [{ name: 'x' }, 'name'],
      [{ name: 'y'.repeat(101) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: ' a ' }, 'name'],
      [{ name: 'Ok', alias: 'ab' }, 'alias'],
      [{ name: 'Ok', alias: 'has space' }, 'alias'],
      [{ name: 'Ok', alias: 'a'.repeat(65) }, 'alias'],
      [{ name: 'Ok', alias: 'dot.ted' }, 'alias'],
      [{ name: 'Ok', alias: 12345 }, 'alias'],
      [{ name: 'Ok', description: 'd'.repeat(501) }, 'description'],
      [{ name: 'Ok', description: 5 }, 'description'],
      [{ name: 'Ok', avatar: 'ftp://example.com/a.png' }, 'avatar'],
      [{ name: 'Ok', avatar: 'javascript:alert(1)' }, 'avatar'],
      [{ name: 'Ok', avatar: 'data:image/png;base64,AAAA' }, 'avatar'],
      [{ name: 'Ok', avatar: 'not a url' }, 'avatar'],
      [{ name: 'Ok', avatar: 'https://exa mple.com' }, 'avatar'],
      [{ name: 'Ok', avatar: 'http://[broken' }, 'avatar'],
      [{ name: 'Ok', blocks: 'https://example.com' }, 'blocks'],
      [{ name: 'Ok', blocks: { title: 'A', url } }, 'blocks'],
      [{ name: 'Ok', blocks: Array.from({ length: 101 }, () => ({ title: 'A', url })) }, 'blocks'],
      [{ name: 'Ok', blocks: ['https://example.com'] }, 'blocks.0'],
      [{ name: 'Ok', blocks: [{ url }] }, 'blocks.0.title'],
      [{ name: 'Ok', blocks: [{ title: '', url }] }, 'blocks.0.title'],
      [{ name: 'Ok', blocks: [{ title: '   ', url }] }, 'blocks.0.title'],
      [{ name: 'Ok', blocks: [{ title: 't'.repeat(101), url }] }, 'blocks.0.title'],
      [{ name: 'Ok', blocks: [{ title: 7, url }] }, 'blocks.0.title'],
      [{ name: 'Ok', blocks: [{ title: 'A', url }, { title: 'B' }] }, 'blocks.1.url'],
      [{ name: 'Ok', blocks: [{ title: 'A', url: 'javascript:alert(1)' }] }, 'blocks.0.url'],
      [{ name: 'Ok', blocks: [{ title: 'A', url: 'JavaScript://%0aalert(1)' }] }, 'blocks.0.url'],
      [{ name: 'Ok', blocks: [{ title: 'A', url: 'data:text/html,<script>alert(1)</script>' }] }, 'blocks.0.url'],
      [{ name: 'Ok', blocks: [{ title: 'A', url: 'mailto:me@example.com' }] }, 'blocks.0.url'],
      [{ name: 'Ok', blocks: [{ title: 'A', url: '/relative/path' }] }, 'blocks.0.url'],
      [{ name: 'Ok', blocks: [{ title: 'A', url: 'http://[broken' }] }, 'blocks.0.url'],
      [{ name: 'Ok', blocks: [{ title: 'A', url: `https://example.com/${'x'.repeat(2100)}` }] }, 'blocks.0.url'],
    ])('refuses %j with a 400 naming %s', async (body, field) => {
      const response = await api('POST', '/api/bio/add', body)
      expect(response.statusCode).toBe(400)
      expect(response.data.error).toBe(1)
      expect(response.data.code).toBe('validation_failed')
      expect(response.data.message).toContain(`"${field}"`)
    })

    it('words block errors with the field path and the rule', async () => {
      const response = await api('POST', '/api/bio/add', { name: 'Ok', blocks: [{ title: 'A', url: 'https://a.example/' }, { title: 'B', url: 'javascript:alert(1)' }] })
      expect(response.data.message).toBe('The field "blocks.1.url" must be an http or https URL.')
      const missing = await api('POST', '/api/bio/add', { blocks: [] })
      expect(missing.data.message).toBe('The field "name" is required.')
    })

    it('stores nothing when the input is refused', async () => {
      const before = await api('GET', '/api/bio?limit=100')
      await api('POST', '/api/bio/add', { name: 'Refused', blocks: [{ title: 'A', url: 'javascript:alert(1)' }] })
      const after = await api('GET', '/api/bio?limit=100')
      expect(after.data.data.result).toBe(before.data.data.result)
    })
  })

  describe('aliases', () => {
    it.each(['api', 'API', 'App', 'healthz', 'Readyz', 'metrics'])('refuses the reserved alias %s', async (alias) => {
      const response = await api('POST', '/api/bio/add', { name: 'Reserved', alias })
      expect(response.statusCode).toBe(400)
      expect(response.data).toEqual({ error: 1, message: 'This alias is reserved. Please choose another one.', code: 'validation_failed', field: 'alias' })
    })

    it('refuses an alias another bio page uses, in any letter case and from any account', async () => {
      const alias = uniqueAlias('Taken')
      await createBio(otherApi, { name: 'First', alias })
      for (const attempt of [alias, alias.toUpperCase(), alias.toLowerCase()]) {
        const response = await api('POST', '/api/bio/add', { name: 'Second', alias: attempt })
        expect(response.statusCode).toBe(400)
        expect(response.data).toEqual({ error: 1, message: 'That alias is taken. Please choose another one.', code: 'duplicate', field: 'alias' })
      }
    })

    it('refuses an alias a short link uses on the main host, in any letter case', async () => {
      const alias = uniqueAlias('Link')
      await createLink(context, other, { custom: alias })
      for (const attempt of [alias, alias.toUpperCase()]) {
        const response = await api('POST', '/api/bio/add', { name: 'Clash', alias: attempt })
        expect(response.statusCode).toBe(400)
        expect(response.data.message).toBe('That alias is taken. Please choose another one.')
      }
    })

    it('accepts an alias that a short link uses only on a branded domain', async () => {
      const alias = uniqueAlias('branded')
      await createLink(context, owner, { custom: alias, domain: (await createDomain(context, owner, { domain: 'https://go.brand.example' })).id })
      const response = await api('POST', '/api/bio/add', { name: 'Main host page', alias })
      expect(response.statusCode).toBe(201)
      expect(response.data.url).toBe(`${PUBLIC_URL}/${alias}`)
    })

    it('keeps the alias as given (case preserved)', async () => {
      const alias = uniqueAlias('MixedCase')
      const { id } = await createBio(api, { name: 'Mixed', alias })
      expect((await api('GET', `/api/bio/${id}`)).data.data.alias).toBe(alias)
    })
  })

})


describe('bio page list', () => {

  const { context } = useTestApp()

  it('lists with the envelope, newest first, paged', async () => {
    const account = await createAccount(context)
    const client = apiClient(context.app, account.apiKey)
    const created: Array<{ id: number; alias: string }> = []
    for (const name of ['one', 'two', 'three', 'four']) {
      const alias = `list-${name}`
      const response = await client('POST', '/api/bio/add', { name, alias })
      created.push({ id: response.data.id, alias })
    }
    const first = await client('GET', '/api/bio?limit=3')
    expect(first.statusCode).toBe(200)
    expect(first.data).toEqual({
      error: '0',
      data: {
        result: 4,
        perpage: 3,
        currentpage: 1,
        nextpage: 2,
        maxpage: 2,
        bio: ['four', 'three', 'two'].map((name) => ({
          id: created.find((entry) => entry.alias === `list-${name}`)!.id,
          alias: `list-${name}`,
          name,
          url: `${PUBLIC_URL}/list-${name}`,
          clicks: 0,
          date: expect.stringMatching(DATE_TIME),
          tags: [],
        })),
      },
    })
    const second = await client('GET', '/api/bio?limit=3&page=2')
    expect(second.data.data).toMatchObject({ result: 4, perpage: 3, currentpage: 2, nextpage: null, maxpage: 2 })
    expect(second.data.data.bio.map((entry: { name: string }) => entry.name)).toEqual(['one'])
    const past = await client('GET', '/api/bio?limit=3&page=9')
    expect(past.data.data.bio).toEqual([])
    expect(past.data.data.nextpage).toBeNull()
    const clamped = await client('GET', '/api/bio?limit=1000')
    expect(clamped.data.data.perpage).toBe(100)
  })

  it('lists each page with its visits, all time', async () => {
    const account = await createAccount(context)
    const client = apiClient(context.app, account.apiKey)
    const visited = await client('POST', '/api/bio/add', { name: 'Visited' })
    await client('POST', '/api/bio/add', { name: 'Quiet' })
    const alias = new URL(visited.data.url).pathname.slice(1)
    const desktop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    for (let visit = 0; visit < 2; visit += 1) {
      const page = await context.app.inject({ method: 'GET', url: `/${alias}`, headers: { 'user-agent': desktop } })
      expect(page.statusCode).toBe(200)
    }
    await context.clicks.flush()
    const list = await client('GET', '/api/bio')
    expect(list.data.data.bio.map((page: { name: string; clicks: number }) => [page.name, page.clicks])).toEqual([['Quiet', 0], ['Visited', 2]])
  })

  it('answers an empty list with maxpage 0 for an account without bio pages', async () => {
    const client = apiClient(context.app, (await createAccount(context)).apiKey)
    const response = await client('GET', '/api/bio')
    expect(response.data).toEqual({ error: '0', data: { result: 0, perpage: 15, currentpage: 1, nextpage: null, maxpage: 0, bio: [] } })
  })

  it.each(['limit=0', 'limit=abc', 'page=0', 'page=-2', 'page=1.5'])('refuses the query %s with a 400', async (query) => {
    const client = apiClient(context.app, (await createAccount(context)).apiKey)
    const response = await client('GET', `/api/bio?${query}`)
    expect(response.statusCode).toBe(400)
    expect(response.data.code).toBe('validation_failed')
  })
})
