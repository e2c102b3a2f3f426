import { beforeAll, describe, expect, it } from 'vitest'
import { setLinkCounters } from '../../helpers/factories.js'
import { PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'

const ENTRY_KEYS = ['alias', 'campaign', 'clicks', 'date', 'description', 'domain', 'expiry', 'health', 'id', 'longurl', 'password', 'pixels', 'shorturl', 'tags', 'title', 'type', 'uniqueclicks']

describe('GET /api/urls', () => {
  let ids: Record<string, number>

  const { context, api, otherApi } = useTestApp()

  beforeAll(async () => {
    ids = {}
    const links: [string, Record<string, unknown>, number][] = [
      ['alpha', { url: 'https://news.example/politics', metatitle: 'Morning News' }, 5],
      ['beta', { url: 'https://shop.example/100%_off' }, 50],
      ['Gamma_Ray', { url: 'https://science.example/rays', metatitle: 'Rays explained' }, 50],
      ['delta', { url: 'https://other.example/x' }, 0],
    ]
    for (const [alias, body, clicks] of links) {
      const created = await api('POST', '/api/url/add', { ...body, custom: alias })
      ids[alias] = created.data.id
      await setLinkCounters(context, created.data.id, clicks, 1)
    }
    // Another account's links never appear.
    await otherApi('POST', '/api/url/add', { url: 'https://news.example/elsewhere', custom: 'foreign-news' })
  })

  const aliasesOf = (response: { data: { data: { urls: { alias: string }[] } } }) => response.data.data.urls.map((entry) => entry.alias)

  it('knows the total on every page, whether the page is full, the last one, or past the end', async () => {
    const pageOf = async (query: string) => {
      const { result, maxpage, nextpage, urls } = (await api('GET', `/api/urls?${query}`)).data.data
      return { result, maxpage, nextpage, aliases: urls.map((entry: { alias: string }) => entry.alias) }
    }
    // Exactly one page: no row beyond it.
    expect(await pageOf('limit=4')).toEqual({ result: 4, maxpage: 1, nextpage: null, aliases: ['delta', 'Gamma_Ray', 'beta', 'alpha'] })
    // A full page with more after it, then the short last page.
    expect(await pageOf('limit=3')).toEqual({ result: 4, maxpage: 2, nextpage: 2, aliases: ['delta', 'Gamma_Ray', 'beta'] })
    expect(await pageOf('limit=3&page=2')).toEqual({ result: 4, maxpage: 2, nextpage: null, aliases: ['alpha'] })
    // Two full pages exactly, and a page past the end still counts them all.
    expect(await pageOf('limit=2&page=2')).toEqual({ result: 4, maxpage: 2, nextpage: null, aliases: ['beta', 'alpha'] })
    expect(await pageOf('limit=2&page=5')).toEqual({ result: 4, maxpage: 2, nextpage: null, aliases: [] })
    // Searching pages the same way.
    expect(await pageOf('q=example&limit=3&page=2')).toEqual({ result: 4, maxpage: 2, nextpage: null, aliases: ['alpha'] })
    expect(await pageOf('q=news&limit=1')).toEqual({ result: 1, maxpage: 1, nextpage: null, aliases: ['alpha'] })
  })

  it('lists newest first with the list envelope and the entry fields', async () => {
    const response = await api('GET', '/api/urls')
    expect(response.statusCode).toBe(200)
    expect(response.data.error).toBe('0')
    expect(response.data.data).toMatchObject({ result: 4, perpage: 15, currentpage: 1, nextpage: null, maxpage: 1 })
    expect(aliasesOf(response)).toEqual(['delta', 'Gamma_Ray', 'beta', 'alpha'])
    const alpha = response.data.data.urls[3]
    expect(Object.keys(alpha).sort()).toEqual(ENTRY_KEYS)
    expect(alpha).toEqual({
      id: ids.alpha,
      alias: 'alpha',
      shorturl: `${PUBLIC_URL}/alpha`,
      longurl: 'https://news.example/politics',
      title: 'Morning News',
      description: null,
      clicks: 5,
      uniqueclicks: 1,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      domain: null,
      campaign: null,
      pixels: [],
      type: 'direct',
      expiry: null,
      password: false,
      tags: [],
      health: { state: 'unknown', status: null, checkedat: null },
    })
  })

  it('pages with limit and page', async () => {
    const first = await api('GET', '/api/urls?limit=3')
    expect(first.data.data).toMatchObject({ result: 4, perpage: 3, currentpage: 1, nextpage: 2, maxpage: 2 })
    expect(aliasesOf(first)).toEqual(['delta', 'Gamma_Ray', 'beta'])
    const second = await api('GET', '/api/urls?limit=3&page=2')
    expect(second.data.data).toMatchObject({ currentpage: 2, nextpage: null, maxpage: 2 })
    expect(aliasesOf(second)).toEqual(['alpha'])
    const past = await api('GET', '/api/urls?limit=3&page=7')
    expect(past.data.data.urls).toEqual([])
    expect((await api('GET', '/api/urls?limit=1000')).data.data.perpage).toBe(100)
  })

  it('orders by clicks, most first, ties newest first', async () => {
    const response = await api('GET', '/api/urls?order=clicks')
    expect(aliasesOf(response)).toEqual(['Gamma_Ray', 'beta', 'alpha', 'delta'])
    expect(aliasesOf(await api('GET', '/api/urls?order=date'))).toEqual(['delta', 'Gamma_Ray', 'beta', 'alpha'])
  })

  it.each([
    ['gamma', ['Gamma_Ray']],
    ['NEWS', ['alpha']],
    ['rays', ['Gamma_Ray']],
    ['.example/', ['delta', 'Gamma_Ray', 'beta', 'alpha']],
    ['%', ['beta']],
    ['_', ['Gamma_Ray', 'beta']],
    ['100%_', ['beta']],
    ['a_r', ['Gamma_Ray']],
    ['!', []],
    ['nothing matches', []],
  ])('searches alias, destination and title for %j, case-insensitively, with %% and _ taken literally', async (q, expected) => {
    const response = await api('GET', `/api/urls?q=${encodeURIComponent(q)}`)
    expect(response.statusCode).toBe(200)
    expect(aliasesOf(response)).toEqual(expected)
    expect(response.data.data.result).toBe(expected.length)
  })

  it('combines search, order and paging', async () => {
    const response = await api('GET', '/api/urls?q=example&order=clicks&limit=2&page=2')
    expect(response.data.data).toMatchObject({ result: 4, currentpage: 2, nextpage: null, maxpage: 2 })
    expect(aliasesOf(response)).toEqual(['alpha', 'delta'])
  })

  it.each([
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['order=random', 'order'],
    [`q=${'x'.repeat(201)}`, 'q'],
  ])('refuses the query %s with a 400 naming %s', async (query, name) => {
    const response = await api('GET', `/api/urls?${query}`)
    expect(response.statusCode).toBe(400)
    expect(response.data.code).toBe('validation_failed')
    expect(response.data.message).toContain(`"${name}"`)
  })
})

describe('GET /api/urls: each link with its pixels', () => {
  const { api } = useTestApp()

  it('lists every link’s pixel ids in ascending order, on plain, searched and narrowed lists alike', async () => {
    const pixel = async (tag: string) => (await api('POST', '/api/pixel/add', { type: 'gtmpixel', name: tag, tag })).data.id as number
    const [first, second, third] = [await pixel('GTM-AAAA1'), await pixel('GTM-BBBB2'), await pixel('GTM-CCCC3')]
    const campaign = (await api('POST', '/api/campaign/add', { name: 'Autumn' })).data.id as number
    // Given out of order; one link without pixels between links with them.
    await api('POST', '/api/url/add', { url: 'https://shop.example/a', custom: 'three-pixels', pixels: [third, first, second], campaign })
    await api('POST', '/api/url/add', { url: 'https://shop.example/b', custom: 'no-pixels', campaign })
    await api('POST', '/api/url/add', { url: 'https://shop.example/c', custom: 'one-pixel', pixels: [second] })
    const expected = { 'one-pixel': [second], 'no-pixels': [], 'three-pixels': [first, second, third] }
    const pixelsOf = async (query: string) =>
      Object.fromEntries((await api('GET', `/api/urls${query}`)).data.data.urls.map((entry: { alias: string; pixels: number[] }) => [entry.alias, entry.pixels]))

    expect(await pixelsOf('')).toEqual(expected)
    expect(await pixelsOf('?order=clicks&q=shop')).toEqual(expected)
    // A page of one: the look-ahead row is not listed, the page's link keeps its pixels.
    expect(await pixelsOf('?limit=1&page=3')).toEqual({ 'three-pixels': [first, second, third] })
    // Narrowed by campaign: the other way lists are read (db/paging.ts).
    expect(await pixelsOf(`?campaign=${campaign}`)).toEqual({ 'no-pixels': [], 'three-pixels': [first, second, third] })
  })
})
