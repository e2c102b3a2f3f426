import { describe, expect, it } from 'vitest'
import { PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { createCampaign, createLink } from '../../helpers/factories.js'

describe('one campaign and its links', () => {
  const { context, owner, other, api, otherApi } = useTestApp()
  const campaignOf = async (linkId: number) =>
    (await context.database.db.selectFrom('links').select('campaign_id').where('id', '=', linkId).executeTakeFirstOrThrow()).campaign_id

  it('reads one campaign with its rotator, list URL and views under `data`', async () => {
    const id = await createCampaign(context, owner, { name: 'Read me', slug: 'read-me-slug', public: true })
    const response = await api('GET', `/api/campaign/${id}`)
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({
      error: 0,
      data: { id, name: 'Read me', public: true, rotator: `${PUBLIC_URL}/r/read-me-slug`, list: `${PUBLIC_URL}/u/${owner.username}/read-me-slug-${id}`, views: 0 },
    })
  })

  it('answers 404 for an unknown campaign and for another account’s, 400 for a malformed id', async () => {
    const theirs = await createCampaign(context, other, { name: 'Not yours' })
    for (const id of [999999, theirs]) {
      const response = await api('GET', `/api/campaign/${id}`)
      expect(response.statusCode).toBe(404)
      expect(response.data).toEqual({ error: 1, message: 'Campaign not found. Please try again.', code: 'not_found' })
    }
    expect((await api('GET', '/api/campaign/abc')).statusCode).toBe(400)
  })

  it('removes a link from the campaign; the link stays, the campaign’s list no longer has it', async () => {
    const id = await createCampaign(context, owner, { name: 'Removal' })
    const kept = await createLink(context, owner)
    const removed = await createLink(context, owner)
    for (const link of [kept, removed]) expect((await api('POST', `/api/campaign/${id}/assign/${link.id}`)).statusCode).toBe(200)
    const response = await api('DELETE', `/api/campaign/${id}/assign/${removed.id}`)
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({ error: 0, message: 'Link successfully removed from the campaign.' })
    expect(await campaignOf(removed.id)).toBeNull()
    expect(await campaignOf(kept.id)).toBe(id)
    expect((await api('GET', `/api/url/${removed.id}`)).statusCode).toBe(200)
    const listed = await api('GET', `/api/urls?campaign=${id}`)
    expect(listed.data.data.urls.map((link: { id: number }) => link.id)).toEqual([kept.id])
  })

  it('answers 404 for a link that is not in the campaign (in another or none), leaving it where it is', async () => {
    const first = await createCampaign(context, owner, { name: 'First of two' })
    const second = await createCampaign(context, owner, { name: 'Second of two' })
    const link = await createLink(context, owner)
    await api('POST', `/api/campaign/${second}/assign/${link.id}`)
    const wrong = await api('DELETE', `/api/campaign/${first}/assign/${link.id}`)
    expect(wrong.statusCode).toBe(404)
    expect(wrong.data).toEqual({ error: 1, message: 'Link not found. Please try again.', code: 'not_found' })
    expect(await campaignOf(link.id)).toBe(second)
    expect((await api('DELETE', `/api/campaign/${first}/assign/999999`)).statusCode).toBe(404)
    const twice = await api('DELETE', `/api/campaign/${second}/assign/${link.id}`)
    expect(twice.statusCode).toBe(200)
    expect((await api('DELETE', `/api/campaign/${second}/assign/${link.id}`)).statusCode).toBe(404)
  })

  it('never removes from or through another account’s campaign', async () => {
    const mine = await createCampaign(context, owner, { name: 'Guarded' })
    const link = await createLink(context, owner)
    await api('POST', `/api/campaign/${mine}/assign/${link.id}`)
    const response = await otherApi('DELETE', `/api/campaign/${mine}/assign/${link.id}`)
    expect(response.statusCode).toBe(404)
    expect(response.data.message).toBe('Campaign not found. Please try again.')
    expect(await campaignOf(link.id)).toBe(mine)
  })

  it.each(['abc/1', '1/abc', '0/1', '1/1.5'])('refuses the path %s with a 400', async (path) => {
    const response = await api('DELETE', `/api/campaign/${path}`.replace(/\/(\w+|[\d.]+)$/, '/assign/$1'))
    expect(response.statusCode).toBe(400)
    expect(response.data.code).toBe('validation_failed')
  })
})
