import { describe, expect, it } from 'vitest'
import { createCampaign, createChannel, createDomain, createOverlay, createPixel, createSplashPage } from '../../helpers/factories.js'
import { PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'

describe('short links and the records they refer to', () => {

  const { context, owner, other, api, otherApi } = useTestApp()

  describe('isolation between accounts', () => {
    it('answers 404 for another account’s link on every endpoint and never lists it', async () => {
      const mine = await api('POST', '/api/url/add', { url: 'https://private.example', custom: 'owner-only' })
      const id = mine.data.id
      for (const [method, url, body] of [['GET', `/api/url/${id}`], ['PUT', `/api/url/${id}/update`, { url: 'https://hijack.example' }], ['DELETE', `/api/url/${id}/delete`]] as const) {
        const response = await otherApi(method, url, body)
        expect(response.statusCode).toBe(404)
        expect(response.data).toEqual({ error: 1, message: 'Link not found. Please try again.', code: 'not_found' })
      }
      const otherCampaign = await createCampaign(context, other)
      const assign = await otherApi('POST', `/api/campaign/${otherCampaign}/assign/${id}`)
      expect(assign.statusCode).toBe(404)
      expect(assign.data.message).toBe('Link not found. Please try again.')
      const otherChannel = await createChannel(context, other)
      expect((await otherApi('POST', `/api/channel/${otherChannel}/assign/links/${id}`)).statusCode).toBe(404)
      const list = await otherApi('GET', '/api/urls?limit=100')
      expect(list.data.data.urls.map((entry: { id: number }) => entry.id)).not.toContain(id)
      const unchanged = await api('GET', `/api/url/${id}`)
      expect(unchanged.data.details.longurl).toBe('https://private.example')
    })

    const referenceCases: [string, (ctx: { foreign: Awaited<ReturnType<typeof foreignRecords>> }) => Record<string, unknown>, string][] = [
      ['a pixel', ({ foreign }) => ({ pixels: [foreign.pixel] }), 'Pixel not found. Please try again.'],
      ['one of the pixels', ({ foreign }) => ({ pixels: [foreign.ownPixel, foreign.pixel] }), 'Pixel not found. Please try again.'],
      ['a campaign', ({ foreign }) => ({ campaign: foreign.campaign }), 'Campaign not found. Please try again.'],
      ['a channel', ({ foreign }) => ({ channel: foreign.channel }), 'Channel not found. Please try again.'],
      ['a domain by id', ({ foreign }) => ({ domain: foreign.domain.id }), 'Domain not found. Please try again.'],
      ['a domain by address', ({ foreign }) => ({ domain: foreign.domain.origin }), 'Domain not found. Please try again.'],
      ['a splash page', ({ foreign }) => ({ type: foreign.splash }), 'Splash page not found. Please try again.'],
      ['a splash page as text', ({ foreign }) => ({ type: String(foreign.splash) }), 'Splash page not found. Please try again.'],
      ['a CTA overlay', ({ foreign }) => ({ type: `overlay-${foreign.overlay}` }), 'CTA overlay not found. Please try again.'],
    ]

    async function foreignRecords() {
      return {
        pixel: await createPixel(context, other),
        ownPixel: await createPixel(context, owner),
        campaign: await createCampaign(context, other),
        channel: await createChannel(context, other),
        domain: await createDomain(context, other),
        splash: await createSplashPage(context, other),
        overlay: await createOverlay(context, other),
      }
    }

    it.each(referenceCases)('refuses %s of another account with a 404, on create and on update', async (_name, makeBody, message) => {
      const foreign = await foreignRecords()
      const body = makeBody({ foreign })
      const created = await api('POST', '/api/url/add', { url: 'https://refs.example', ...body })
      expect(created.statusCode).toBe(404)
      expect(created.data).toEqual({ error: 1, message, code: 'not_found' })
      const link = await api('POST', '/api/url/add', { url: 'https://refs.example' })
      const updated = await api('PUT', `/api/url/${link.data.id}/update`, body)
      expect(updated.statusCode).toBe(404)
      expect(updated.data.message).toBe(message)
      // Nothing was half-applied.
      const read = await api('GET', `/api/url/${link.data.id}`)
      expect(read.data.details).toMatchObject({ pixels: [], campaign: null, domain: null, type: 'direct' })
    })

    it.each([
      [{ pixels: [999999] }, 'Pixel'],
      [{ campaign: 999999 }, 'Campaign'],
      [{ channel: 999999 }, 'Channel'],
      [{ domain: 999999 }, 'Domain'],
      [{ domain: '99999999999' }, 'Domain'],
      [{ domain: 'https://unknown-domain.example.com' }, 'Domain'],
      [{ type: 999999 }, 'Splash page'],
      [{ type: '99999999999' }, 'Splash page'],
      [{ type: 'overlay-999999' }, 'CTA overlay'],
      [{ type: 'overlay-0' }, 'CTA overlay'],
    ])('answers 404 for unknown references %j', async (body, resource) => {
      const response = await api('POST', '/api/url/add', { url: 'https://unknown.example', ...body })
      expect(response.statusCode).toBe(404)
      expect(response.data.message).toBe(`${resource} not found. Please try again.`)
    })
  })

  describe('campaigns', () => {
    it('assigns a link to a campaign, moves it to another, and unassigns it when the campaign is deleted', async () => {
      const link = await api('POST', '/api/url/add', { url: 'https://campaigned.example' })
      const first = await api('POST', '/api/campaign/add', { name: 'First campaign' })
      const second = await api('POST', '/api/campaign/add', { name: 'Second campaign' })
      const assigned = await api('POST', `/api/campaign/${first.data.id}/assign/${link.data.id}`)
      expect(assigned.statusCode).toBe(200)
      expect(assigned.data).toEqual({ error: 0, message: 'Link successfully added to the campaign.' })
      expect((await api('GET', `/api/url/${link.data.id}`)).data.details.campaign).toBe(first.data.id)
      await api('POST', `/api/campaign/${second.data.id}/assign/${link.data.id}`)
      expect((await api('GET', `/api/url/${link.data.id}`)).data.details.campaign).toBe(second.data.id)
      expect((await api('DELETE', `/api/campaign/${second.data.id}/delete`)).statusCode).toBe(200)
      expect((await api('GET', `/api/url/${link.data.id}`)).data.details.campaign).toBeNull()
    })

    it('answers 404 when assigning to another account’s campaign or an unknown link', async () => {
      const link = await api('POST', '/api/url/add', { url: 'https://campaigned.example' })
      const foreignCampaign = await createCampaign(context, other)
      const foreign = await api('POST', `/api/campaign/${foreignCampaign}/assign/${link.data.id}`)
      expect(foreign.statusCode).toBe(404)
      expect(foreign.data.message).toBe('Campaign not found. Please try again.')
      const campaign = await createCampaign(context, owner)
      expect((await api('POST', `/api/campaign/${campaign}/assign/999999`)).statusCode).toBe(404)
    })
  })

  describe('channels', () => {
    it('adds a link to a channel on create and on update, and lists it as a `links` item', async () => {
      const channel = await createChannel(context, owner)
      const domain = await createDomain(context, owner)
      const titled = await api('POST', '/api/url/add', { url: 'https://titled.example/page', custom: 'titled', metatitle: 'A title', channel })
      expect(titled.statusCode).toBe(201)
      const untitled = await api('POST', '/api/url/add', { url: 'https://untitled.example/page', custom: 'untitled', domain: domain.id })
      const joined = await api('PUT', `/api/url/${untitled.data.id}/update`, { channel })
      expect(joined.statusCode).toBe(200)
      // Naming the same channel again is harmless.
      expect((await api('PUT', `/api/url/${untitled.data.id}/update`, { channel })).statusCode).toBe(200)
      const items = await api('GET', `/api/channel/${channel}`)
      expect(items.statusCode).toBe(200)
      expect(items.data.data.result).toBe(2)
      expect(items.data.data.items).toEqual([
        { type: 'links', id: untitled.data.id, title: 'https://untitled.example/page', preview: 'https://untitled.example/page', link: `${domain.origin}/untitled`, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
        { type: 'links', id: titled.data.id, title: 'A title', preview: 'https://titled.example/page', link: `${PUBLIC_URL}/titled`, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
      ])
    })

    it('can be assigned through the channel endpoint, and leaves every channel when deleted', async () => {
      const [channelA, channelB] = [await createChannel(context, owner), await createChannel(context, owner)]
      const link = await api('POST', '/api/url/add', { url: 'https://channelled.example', channel: channelA })
      const assigned = await api('POST', `/api/channel/${channelB}/assign/links/${link.data.id}`)
      expect(assigned.statusCode).toBe(200)
      const twice = await api('POST', `/api/channel/${channelB}/assign/links/${link.data.id}`)
      expect(twice.statusCode).toBe(400)
      expect(twice.data.message).toBe('This item is already added to the selected channel.')
      await api('DELETE', `/api/url/${link.data.id}/delete`)
      const rows = await context.database.db.selectFrom('channel_items').select('id').where('item_type', '=', 'links').where('item_id', '=', link.data.id).execute()
      expect(rows).toEqual([])
      expect((await api('GET', `/api/channel/${channelA}`)).data.data.items).toEqual([])
    })
  })

  describe('branded domains', () => {
    it('refuses to delete a domain that still has links, until they are moved or deleted', async () => {
      const added = await api('POST', '/api/domain/add', { domain: `https://links-${Date.now()}.example.com` })
      expect(added.statusCode).toBe(201)
      const domainId = added.data.id
      const moved = await api('POST', '/api/url/add', { url: 'https://on-domain.example', domain: domainId })
      const deletedLater = await api('POST', '/api/url/add', { url: 'https://on-domain.example', domain: domainId })
      const refused = await api('DELETE', `/api/domain/${domainId}/delete`)
      expect(refused.statusCode).toBe(400)
      expect(refused.data).toEqual({ error: 1, message: 'This domain still has short links. Delete them or move them to another domain first.', code: 'domain_has_links' })
      // Another account asking about it learns nothing more than "not found".
      expect((await otherApi('DELETE', `/api/domain/${domainId}/delete`)).statusCode).toBe(404)
      await api('PUT', `/api/url/${moved.data.id}/update`, { domain: '' })
      expect((await api('DELETE', `/api/domain/${domainId}/delete`)).statusCode).toBe(400)
      await api('DELETE', `/api/url/${deletedLater.data.id}/delete`)
      const deleted = await api('DELETE', `/api/domain/${domainId}/delete`)
      expect(deleted.statusCode).toBe(200)
      expect((await api('GET', `/api/url/${moved.data.id}`)).data.details).toMatchObject({ domain: null, shorturl: expect.stringMatching(/^https:\/\/lw\.test\//) })
    })
  })
})
