// The public campaign addresses: the rotator (/r/{slug}) and the list page (/u/{username}/{slug}-{id}).
import { describe, expect, it } from 'vitest'
import { createCampaignPagesRepository } from '../../src/modules/campaigns/campaign-pages.repository.js'
import { createCampaignPagesService } from '../../src/modules/campaigns/campaign-pages.service.js'
import { DEFAULT_CSP } from '../../src/public/html.js'
import { aliasKey } from '../../src/modules/aliases/alias-namespace.js'
import { createDomain, createLink, insertLinkRow } from '../helpers/factories.js'
import { PUBLIC_URL, useTestApp } from '../helpers/test-app.js'
import { ALIAS_TOPIC, CAMPAIGN_TOPIC, createLocalInvalidationBus } from '../../src/core/invalidation.js'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const PAST = '2000-01-01 00:00:00'
const FUTURE = '2999-01-01 00:00:00'

describe('campaign rotator and list page', () => {
  const { context, owner, other, api } = useTestApp()

  async function createCampaign(body: Record<string, unknown>): Promise<{ id: number; list: string; rotator: string | false }> {
    const created = await api('POST', '/api/campaign/add', body)
    expect(created.statusCode).toBe(201)
    return created.data
  }

  /** A visitor's request: a browser's user agent (inject's own counts as a bot), no API key. */
  function visit(url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
    return context.app.inject({ method, url, headers: { 'user-agent': BROWSER, ...headers } })
  }

  async function campaignClicks(campaignId: number) {
    await context.clicks.flush()
    return context.database.db.selectFrom('clicks').selectAll().where('item_type', '=', 'campaign').where('item_id', '=', campaignId).orderBy('id').execute()
  }

  function expectNotFoundPage(response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.body).toContain('<h1>Not found</h1>')
  }

  describe('GET /r/{slug}', () => {
    it('sends visitors to the links in turn, ordered by id, and records one campaign click per visit', async () => {
      const campaign = await createCampaign({ name: 'Rotating', slug: 'rotating-three' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://one.example/a' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://two.example/b' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://three.example/c?q=1' })

      const locations: string[] = []
      for (let visitNumber = 0; visitNumber < 7; visitNumber += 1) {
        const response = await visit('/r/rotating-three', { referer: 'https://www.news.example/post', 'accept-language': 'de-DE,de;q=0.9' })
        expect(response.statusCode).toBe(302)
        expect(response.headers['cache-control']).toBe('private, max-age=0')
        locations.push(response.headers.location as string)
      }
      expect(locations).toEqual([
        'https://one.example/a', 'https://two.example/b', 'https://three.example/c?q=1',
        'https://one.example/a', 'https://two.example/b', 'https://three.example/c?q=1',
        'https://one.example/a',
      ])

      const rows = await campaignClicks(campaign.id)
      expect(rows).toHaveLength(7)
      expect(rows[0]).toMatchObject({ account_id: owner.id, item_type: 'campaign', item_id: campaign.id, referrer_host: 'news.example', language: 'de' })
      expect(rows[0]!.visitor_hash).toEqual(expect.any(String))
    })

    it('skips expired links and keeps links whose expiry is still ahead', async () => {
      const campaign = await createCampaign({ name: 'With expiry', slug: 'with-expiry' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://live.example/', expiry: FUTURE })
      await insertLinkRow(context.database.db, owner.id, { campaign_id: campaign.id, url: 'https://expired.example/', expires_at: PAST })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://forever.example/' })
      const locations = []
      for (let visitNumber = 0; visitNumber < 4; visitNumber += 1) locations.push((await visit('/r/with-expiry')).headers.location)
      expect(locations).toEqual(['https://live.example/', 'https://forever.example/', 'https://live.example/', 'https://forever.example/'])
    })

    it('answers HEAD with the current link without counting it or taking a turn', async () => {
      const campaign = await createCampaign({ name: 'Head campaign', slug: 'head-campaign' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://first.example/' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://second.example/' })
      for (let visitNumber = 0; visitNumber < 3; visitNumber += 1) {
        const head = await visit('/r/head-campaign', {}, 'HEAD')
        expect(head.statusCode).toBe(302)
        expect(head.headers.location).toBe('https://first.example/')
      }
      expect((await visit('/r/head-campaign')).headers.location).toBe('https://first.example/')
      expect((await visit('/r/head-campaign')).headers.location).toBe('https://second.example/')
      expect(await campaignClicks(campaign.id)).toHaveLength(2)
    })

    it('redirects bots without counting them', async () => {
      const campaign = await createCampaign({ name: 'Bot campaign', slug: 'bot-campaign' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://bots.example/' })
      const response = await visit('/r/bot-campaign', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })
      expect(response.statusCode).toBe(302)
      expect(response.headers.location).toBe('https://bots.example/')
      expect(await campaignClicks(campaign.id)).toHaveLength(0)
    })

    it('sends a password-protected link to its short URL (the password form), never to its destination', async () => {
      const campaign = await createCampaign({ name: 'Protected', slug: 'protected-rotation' })
      const link = await createLink(context, owner, { campaign: campaign.id, url: 'https://secret.example/', password: 'open sesame' })
      expect((await visit('/r/protected-rotation')).headers.location).toBe(`${PUBLIC_URL}/${link.alias}`)
    })

    it("ignores another account's link pointing at the campaign", async () => {
      const campaign = await createCampaign({ name: 'Isolated', slug: 'isolated-rotation' })
      await insertLinkRow(context.database.db, other.id, { campaign_id: campaign.id, url: 'https://intruder.example/' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://own.example/' })
      for (let visitNumber = 0; visitNumber < 3; visitNumber += 1) {
        expect((await visit('/r/isolated-rotation')).headers.location).toBe('https://own.example/')
      }
    })

    it('percent-encodes a destination with non-ASCII characters', async () => {
      const campaign = await createCampaign({ name: 'Unicode', slug: 'unicode-rotation' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://例え.jp/中文?q=é' })
      expect((await visit('/r/unicode-rotation')).headers.location).toBe('https://xn--r8jz45g.jp/%E4%B8%AD%E6%96%87?q=%C3%A9')
    })

    it('answers the 404 page for an unknown slug, a malformed slug, no links, or only expired links', async () => {
      await createCampaign({ name: 'Empty', slug: 'empty-campaign' })
      const expiredOnly = await createCampaign({ name: 'Expired only', slug: 'expired-only' })
      await insertLinkRow(context.database.db, owner.id, { campaign_id: expiredOnly.id, url: 'https://gone.example/', expires_at: PAST })
      for (const path of ['/r/no-such-slug', '/r/a%20b', '/r/ab', '/r/empty-campaign', '/r/expired-only', '/r/ROTATING-THREE']) {
        expectNotFoundPage(await visit(path))
      }
      expect(await campaignClicks(expiredOnly.id)).toHaveLength(0)
    })
  })

  describe('rotation cache', () => {
    it('reads the database once per miss, and reloads when a link or campaign change is announced', async () => {
      const campaign = await createCampaign({ name: 'Cached', slug: 'cached-rotation' })
      const db = context.database.db
      await createLink(context, owner, { campaign: campaign.id, url: 'https://cached-one.example/' })

      // The service alone, on a bus this test controls, over a database handle that counts reads.
      let reads = 0
      const countingDb = new Proxy(db, {
        get(target, property) {
          if (property === 'selectFrom') reads += 1
          const value = Reflect.get(target, property) as unknown
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
      const invalidation = createLocalInvalidationBus(60_000)
      const campaignPages = createCampaignPagesService({ pages: createCampaignPagesRepository(countingDb), invalidation, publicUrl: PUBLIC_URL })
      try {
        const go = async () => (await campaignPages.rotate('cached-rotation', true))?.link.target
        expect(await go()).toBe('https://cached-one.example/')
        expect(await go()).toBe('https://cached-one.example/')
        expect(reads).toBe(1)

        // Not announced: the cached rotation still holds one link.
        const added = await createLink(context, owner, { campaign: campaign.id, url: 'https://cached-two.example/' })
        expect(await go()).toBe('https://cached-one.example/')
        expect(reads).toBe(1)

        invalidation.publish(ALIAS_TOPIC, aliasKey('', added.alias))
        expect([await go(), await go()].sort()).toEqual(['https://cached-one.example/', 'https://cached-two.example/'])
        expect(reads).toBe(2)

        await db.updateTable('links').set({ campaign_id: null }).where('id', '=', added.id).execute()
        invalidation.publish(CAMPAIGN_TOPIC, String(campaign.id))
        expect([await go(), await go()]).toEqual(['https://cached-one.example/', 'https://cached-one.example/'])
        expect(reads).toBe(3)

        // Unknown slugs are not cached (random slugs must not push real rotations out).
        expect(await campaignPages.rotate('never-there', true)).toBeUndefined()
        expect(await campaignPages.rotate('never-there', true)).toBeUndefined()
        expect(reads).toBe(5)
        // A malformed slug costs no read at all.
        expect(await campaignPages.rotate('x', true)).toBeUndefined()
        expect(reads).toBe(5)
      } finally {
        await invalidation.close()
      }
    })
  })

  describe('GET /u/{username}/{slug}-{id}', () => {
    it('renders a public campaign with its live links, escaped, under the default CSP', async () => {
      const campaign = await createCampaign({ name: '<script>alert("name")</script> Sale', slug: 'escaped-sale', public: true })
      const domain = await createDomain(context, owner, { domain: 'https://go.brand.test' })
      const titled = await createLink(context, owner, { campaign: campaign.id, url: 'https://titled.example/', metatitle: '<script>alert("title")</script> & more' })
      const untitled = await createLink(context, owner, { campaign: campaign.id, url: 'https://untitled.example/path?a=1&b="2"' })
      const branded = await createLink(context, owner, { campaign: campaign.id, url: 'https://branded.example/', metatitle: 'Branded', domain: domain.id })
      await insertLinkRow(context.database.db, owner.id, { campaign_id: campaign.id, url: 'https://expired.example/', title: 'Expired link', expires_at: PAST })
      await insertLinkRow(context.database.db, other.id, { campaign_id: campaign.id, url: 'https://intruder.example/', title: 'Intruder' })

      expect(campaign.list).toBe(`${PUBLIC_URL}/u/${owner.username}/escaped-sale-${campaign.id}`)
      const response = await visit(new URL(campaign.list).pathname)
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(response.headers['content-security-policy']).toBe(DEFAULT_CSP)
      expect(response.headers['x-content-type-options']).toBe('nosniff')
      expect(response.body).not.toContain('<script')
      expect(response.body).toContain('<title>&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; Sale</title>')
      expect(response.body).toContain('<h1>&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; Sale</h1>')
      const anchors = [...response.body.matchAll(/<a class="button" href="([^"]*)" rel="nofollow noopener">([^<]*)<\/a>/g)].map((match) => [match[1], match[2]])
      expect(anchors).toEqual([
        [`${PUBLIC_URL}/${titled.alias}`, '&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; &amp; more'],
        [`${PUBLIC_URL}/${untitled.alias}`, 'https://untitled.example/path?a=1&amp;b=&quot;2&quot;'],
        [`https://go.brand.test/${branded.alias}`, 'Branded'],
      ])

      const head = await visit(new URL(campaign.list).pathname, {}, 'HEAD')
      expect(head.statusCode).toBe(200)
      expect(head.body).toBe('')
    })

    it('serves a campaign without a slug at its slugified name, and says when it has no links', async () => {
      const campaign = await createCampaign({ name: 'Été Spécial 2024', public: true })
      expect(campaign.list).toBe(`${PUBLIC_URL}/u/${owner.username}/ete-special-2024-${campaign.id}`)
      const response = await visit(new URL(campaign.list).pathname)
      expect(response.statusCode).toBe(200)
      expect(response.body).toContain('<h1>Été Spécial 2024</h1>')
      expect(response.body).toContain('No links yet.')
    })

    it('answers the 404 page for a private campaign', async () => {
      const campaign = await createCampaign({ name: 'Private one', slug: 'private-one' })
      await createLink(context, owner, { campaign: campaign.id, url: 'https://private.example/', metatitle: 'Private link' })
      const response = await visit(new URL(campaign.list).pathname)
      expectNotFoundPage(response)
      expect(response.body).not.toContain('Private')
    })

    it('answers the 404 page for a wrong username, a wrong slug, or a malformed or unknown id', async () => {
      const campaign = await createCampaign({ name: 'Exact address', slug: 'exact-address', public: true })
      expect((await visit(`/u/${owner.username}/exact-address-${campaign.id}`)).statusCode).toBe(200)
      for (const path of [
        `/u/${other.username}/exact-address-${campaign.id}`,
        `/u/${owner.username.toUpperCase()}/exact-address-${campaign.id}`,
        `/u/nobody-at-all/exact-address-${campaign.id}`,
        `/u/${owner.username}/exact-addres-${campaign.id}`,
        // The name's slug is not the address when the campaign has its own slug.
        `/u/${owner.username}/${encodeURIComponent('Exact address')}-${campaign.id}`,
        `/u/${owner.username}/exact-address-${campaign.id + 1000}`,
        `/u/${owner.username}/exact-address`,
        `/u/${owner.username}/exact-address-`,
        `/u/${owner.username}/${campaign.id}`,
        `/u/${owner.username}/exact-address-0`,
        `/u/${owner.username}/exact-address-99999999999`,
        `/u/${owner.username}/exact-address-2147483648`,
      ]) {
        expectNotFoundPage(await visit(path))
      }
    })

    it('does not show the destination of a password-protected link', async () => {
      const campaign = await createCampaign({ name: 'Public list', slug: 'public-list-protected', public: true })
      const created = await api('POST', '/api/url/add', { url: 'https://hidden.example/secret-path', password: 'letmein1', campaign: campaign.id })
      expect(created.statusCode).toBe(201)

      const page = await visit(new URL(campaign.list).pathname)
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain(created.data.shorturl)
      expect(page.body).not.toContain('hidden.example')
    })
  })
})
