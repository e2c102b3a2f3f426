// GET /api/urls?campaign&channel&domain: filters applied in SQL, combined with each other and with
// q, order and paging; another account's ids match nothing; bad values get the envelope 400.
import { beforeAll, describe, expect, it } from 'vitest'
import { nowTimestamp } from '../../../src/core/time.js'
import { createCampaign, createChannel, createDomain, createLink, setLinkCounters, uniqueAlias } from '../../helpers/factories.js'
import { useTestApp } from '../../helpers/test-app.js'

describe('GET /api/urls filters', () => {
  const { context, owner, other, api, otherApi } = useTestApp()
  /** The owner's records by name; links by a short name of their own. */
  const ids: Record<string, number> = {}
  const aliases: Record<string, string> = {}
  let foreign: { campaign: number; channel: number; domain: number }

  beforeAll(async () => {
    ids.spring = await createCampaign(context, owner)
    ids.autumn = await createCampaign(context, owner)
    ids.news = await createChannel(context, owner)
    ids.shop = await createChannel(context, owner)
    ids.go = (await createDomain(context, owner)).id
    ids.promo = (await createDomain(context, owner)).id

    // Oldest first; the list shows newest first.
    const links: Array<[string, { campaign?: number; channel?: number; domain?: number; metatitle?: string }, number]> = [
      ['mainSpringNews', { campaign: ids.spring, channel: ids.news, metatitle: 'Spring news' }, 5],
      ['goSpringBoth', { campaign: ids.spring, channel: ids.news, domain: ids.go }, 50],
      ['goShop', { channel: ids.shop, domain: ids.go, metatitle: 'Shop window' }, 7],
      ['promoAutumn', { campaign: ids.autumn, domain: ids.promo }, 0],
      ['mainPlain', {}, 20],
    ]
    for (const [name, input, clicks] of links) {
      const alias = uniqueAlias(name.toLowerCase())
      const created = await createLink(context, owner, { ...input, custom: alias })
      ids[name] = created.id
      aliases[name] = alias
      await setLinkCounters(context, created.id, clicks, 0)
    }
    // A link may sit in several channels.
    expect((await api('POST', `/api/channel/${ids.shop}/assign/links/${ids.goSpringBoth}`)).statusCode).toBe(200)
    // A QR code with the same id as a link, in the news channel: channel items of another type are not links.
    await context.database.db
      .insertInto('channel_items')
      .values({ account_id: owner.id, channel_id: ids.news!, item_type: 'qr', item_id: ids.promoAutumn!, created_at: nowTimestamp() })
      .execute()

    // Another account with records of every kind and a link using all of them.
    foreign = {
      campaign: await createCampaign(context, other),
      channel: await createChannel(context, other),
      domain: (await createDomain(context, other)).id,
    }
    await createLink(context, other, { ...foreign, custom: uniqueAlias('foreign') })
  })

  async function listed(query: string, client = api) {
    const response = await client('GET', `/api/urls?${query}`)
    expect(response.statusCode).toBe(200)
    const { result, maxpage, nextpage, urls } = response.data.data as { result: number; maxpage: number; nextpage: number | null; urls: Array<{ alias: string }> }
    const names = urls.map((entry) => Object.keys(aliases).find((name) => aliases[name] === entry.alias) ?? entry.alias)
    return { result, maxpage, nextpage, names }
  }

  it('narrows to a campaign', async () => {
    expect(await listed(`campaign=${ids.spring}`)).toMatchObject({ result: 2, names: ['goSpringBoth', 'mainSpringNews'] })
    expect(await listed(`campaign=${ids.autumn}`)).toMatchObject({ result: 1, names: ['promoAutumn'] })
  })

  it('narrows to a channel, each link once, links only', async () => {
    expect(await listed(`channel=${ids.news}`)).toMatchObject({ result: 2, names: ['goSpringBoth', 'mainSpringNews'] })
    expect(await listed(`channel=${ids.shop}`)).toMatchObject({ result: 2, names: ['goShop', 'goSpringBoth'] })
  })

  it('narrows to a branded domain, or to the main domain with 0', async () => {
    expect(await listed(`domain=${ids.go}`)).toMatchObject({ result: 2, names: ['goShop', 'goSpringBoth'] })
    expect(await listed(`domain=${ids.promo}`)).toMatchObject({ result: 1, names: ['promoAutumn'] })
    expect(await listed('domain=0')).toMatchObject({ result: 2, names: ['mainPlain', 'mainSpringNews'] })
  })

  it('combines the filters with each other and with q and order', async () => {
    expect(await listed(`campaign=${ids.spring}&domain=0`)).toMatchObject({ result: 1, names: ['mainSpringNews'] })
    expect(await listed(`campaign=${ids.spring}&channel=${ids.shop}&domain=${ids.go}`)).toMatchObject({ result: 1, names: ['goSpringBoth'] })
    expect(await listed(`channel=${ids.shop}&order=clicks`)).toMatchObject({ names: ['goSpringBoth', 'goShop'] })
    expect(await listed(`domain=${ids.go}&q=window`)).toMatchObject({ result: 1, names: ['goShop'] })
    expect(await listed(`channel=${ids.news}&q=window`)).toMatchObject({ result: 0, names: [] })
    expect(await listed(`campaign=${ids.autumn}&channel=${ids.news}`)).toMatchObject({ result: 0, names: [] })
  })

  it('counts the filtered links for paging', async () => {
    const first = await listed(`domain=${ids.go}&order=clicks&limit=1`)
    expect(first).toEqual({ result: 2, maxpage: 2, nextpage: 2, names: ['goSpringBoth'] })
    const second = await listed(`domain=${ids.go}&order=clicks&limit=1&page=2`)
    expect(second).toEqual({ result: 2, maxpage: 2, nextpage: null, names: ['goShop'] })
    expect(await listed(`domain=${ids.go}&limit=1&page=3`)).toEqual({ result: 2, maxpage: 2, nextpage: null, names: [] })
  })

  it("answers an empty page for another account's or an unknown campaign, channel or domain", async () => {
    for (const query of [`campaign=${foreign.campaign}`, `channel=${foreign.channel}`, `domain=${foreign.domain}`, 'campaign=2147483647', 'channel=2147483647', 'domain=2147483647']) {
      expect(await listed(query), query).toEqual({ result: 0, maxpage: 0, nextpage: null, names: [] })
    }
    // Nor does the other account see the owner's links through the owner's ids.
    for (const query of [`campaign=${ids.spring}`, `channel=${ids.news}`, `domain=${ids.go}`]) {
      expect(await listed(query, otherApi), query).toMatchObject({ result: 0, names: [] })
    }
    expect((await listed('domain=0', otherApi)).result).toBe(0)
  })

  it.each([
    ['campaign=0', 'campaign'],
    ['campaign=-3', 'campaign'],
    ['campaign=abc', 'campaign'],
    ['campaign=2147483648', 'campaign'],
    ['channel=1.5', 'channel'],
    ['channel=x', 'channel'],
    ['channel=0', 'channel'],
    ['domain=-1', 'domain'],
    ['domain=main', 'domain'],
    ['domain=1e3', 'domain'],
  ])('refuses %s with the envelope 400 naming %s', async (query, name) => {
    const response = await api('GET', `/api/urls?${query}`)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, code: 'validation_failed' })
    expect(response.data.message).toContain(`"${name}"`)
  })
})
