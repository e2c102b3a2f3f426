// Link lists are answered from kept answers while the account's list version is unchanged
// (src/http/versioned-response-cache.ts, ADR 012). Whatever changes what a list shows, through the
// API, a foreign key, the click writer or a write straight to the database as another instance or
// the CLI makes it, the next answer is the one an app that never kept anything gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiClient, buildAppOn, type ApiClient } from '../../helpers/test-app.js'
import { useTestApp } from '../../helpers/test-app.js'
import { createSplashPage, createCampaign, createPixel } from '../../helpers/factories.js'
import type { App } from '../../../src/http/app-instance.js'

const QUERIES = ['/api/urls', '/api/urls?limit=2&page=2', '/api/urls?order=clicks', '/api/urls?q=shop', '/api/urls?domain=0', '/api/urls?limit=1&page=9']
/** The tag filters (migration 024), compared in the tags' own case only: each query costs a fresh app's answer. */
const TAG_QUERIES = ['/api/urls', '/api/urls?tag=print', '/api/urls?tag=Print&tag=spring']
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

describe('kept link-list answers', () => {
  const { context, owner, api, otherApi } = useTestApp()
  let second: { app: App; api: ApiClient }

  beforeAll(async () => {
    // A second instance on the same database: its changes reach the first through the database alone.
    const { app } = await buildAppOn(context.database, context.config)
    second = { app, api: apiClient(app, owner.apiKey) }
    for (const [alias, url] of [['shop-one', 'https://shop.example/1'], ['news-one', 'https://news.example/1'], ['shop-two', 'https://shop.example/2']]) {
      expect((await api('POST', '/api/url/add', { url, custom: alias })).statusCode).toBe(201)
    }
  })
  afterAll(() => second.app.close())

  /** What an app that keeps nothing answers now: a fresh app on the same database. */
  async function freshAnswers(queries: string[]): Promise<unknown[]> {
    const { app } = await buildAppOn(context.database, context.config)
    try {
      const fresh = apiClient(app, owner.apiKey)
      return await Promise.all(queries.map(async (query) => (await fresh('GET', query)).data))
    } finally {
      await app.close()
    }
  }

  /** Every query through the app that keeps answers, twice (the second a kept one), against a fresh app. */
  async function expectCurrent(queries = QUERIES): Promise<void> {
    const expected = await freshAnswers(queries)
    for (let pass = 0; pass < 2; pass += 1) {
      const answers = await Promise.all(queries.map(async (query) => (await api('GET', query)).data))
      expect(answers).toEqual(expected)
    }
  }

  async function idOf(alias: string): Promise<number> {
    const { data } = await api('GET', '/api/urls?limit=100')
    return data.data.urls.find((entry: { alias: string }) => entry.alias === alias).id
  }

  it('answers what a fresh app answers, and keeps answers apart per account', async () => {
    await expectCurrent()
    const foreign = await otherApi('GET', '/api/urls')
    expect(foreign.data.data.result).toBe(0)
    expect((await api('GET', '/api/urls')).data.data.result).toBe(3)
  })

  it('shows links created, edited and deleted through the API, on this instance or another', async () => {
    await api('POST', '/api/url/add', { url: 'https://shop.example/3', custom: 'shop-three' })
    await expectCurrent()
    await api('PUT', `/api/url/${await idOf('news-one')}/update`, { url: 'https://shop.example/news', metatitle: 'Now a shop' })
    await expectCurrent()
    await second.api('PUT', `/api/url/${await idOf('shop-one')}/update`, { metatitle: 'Edited elsewhere' })
    await expectCurrent()
    await second.api('DELETE', `/api/url/${await idOf('shop-three')}/delete`)
    await expectCurrent()
  })

  it('shows pixels attached and detached, and a campaign or splash page whose deletion clears the link', async () => {
    const pixel = await createPixel(context, owner)
    const campaign = await createCampaign(context, owner)
    const splash = await createSplashPage(context, owner)
    const id = await idOf('shop-two')
    await api('PUT', `/api/url/${id}/update`, { pixels: [pixel], campaign, type: String(splash) })
    await expectCurrent()
    await api('DELETE', `/api/splash/${splash}/delete`)
    await expectCurrent()
    await second.api('DELETE', `/api/campaign/${campaign}/delete`)
    await expectCurrent()
    await api('DELETE', `/api/pixel/${pixel}/delete`)
    await expectCurrent()
  })

  it('shows tags added, taken away, renamed and deleted (migration 024), on this instance or another', async () => {
    const id = await idOf('shop-two')
    await api('PUT', `/api/url/${id}/update`, { tags: ['print', 'spring'] })
    await expectCurrent(TAG_QUERIES)
    expect((await api('GET', '/api/urls?tag=print&tag=SPRING')).data.data.urls.map((entry: { alias: string }) => entry.alias)).toEqual(['shop-two'])
    await second.api('PUT', `/api/url/${await idOf('news-one')}/update`, { tags: ['print'] })
    await expectCurrent(TAG_QUERIES)
    const tags = (await api('GET', '/api/tags')).data.data.tags as { id: number; name: string }[]
    const spring = tags.find((tag) => tag.name === 'spring')!
    await second.api('PUT', `/api/tag/${spring.id}/update`, { name: 'Summer' })
    await expectCurrent(TAG_QUERIES)
    expect((await api('GET', '/api/urls?tag=spring')).data.data.urls).toEqual([])
    const print = tags.find((tag) => tag.name === 'print')!
    await second.api('DELETE', `/api/tag/${print.id}/delete`)
    await expectCurrent(TAG_QUERIES)
    await api('PUT', `/api/url/${id}/update`, { tags: [] })
    await expectCurrent(TAG_QUERIES)
    // Straight to the database: a join row written by another tool moves the version too.
    const tag = (await api('GET', '/api/tags')).data.data.tags[0] as { id: number }
    await context.database.db.insertInto('link_tags').values({ link_id: id, tag_id: tag.id }).execute()
    await expectCurrent(TAG_QUERIES)
  }, 180_000)

  it('shows the clicks the click writer counts', async () => {
    const visit = await context.app.inject({ method: 'GET', url: '/news-one', headers: { host: 'lw.test', 'user-agent': BROWSER } })
    expect(visit.statusCode).toBe(302)
    await context.clicks.flush()
    await expectCurrent()
    const listed = (await api('GET', '/api/urls')).data.data.urls.find((entry: { alias: string }) => entry.alias === 'news-one')
    expect(listed.clicks).toBe(1)
  })

  it('shows a change written straight to the database (the CLI, a restore, another tool)', async () => {
    await context.database.db.updateTable('links').set({ title: 'Written by hand' }).where('account_id', '=', owner.id).execute()
    await expectCurrent()
    await context.database.db.deleteFrom('links').where('account_id', '=', owner.id).where('alias', '=', 'shop-one').execute()
    await expectCurrent()
  })
})
