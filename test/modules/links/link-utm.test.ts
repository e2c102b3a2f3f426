// UTM parameters on a link (issue 23) through the API, and what a visitor gets: the destination
// (or the targeted one) with the parameters merged into its query, on both databases.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'

describe('UTM parameters on links', () => {
  const { context, api, otherApi } = useTestApp()

  async function destinationOf(alias: string, headers: Record<string, string> = {}): Promise<string> {
    const response = await visit(context.app, `/${alias}`, { headers })
    expect(response.statusCode).toBe(302)
    return response.headers.location as string
  }

  it('stores them, shows them, and merges them into the destination at every visit', async () => {
    const created = await api('POST', '/api/url/add', {
      url: 'https://shop.example/spring?utm_source=old&ref=home#offers',
      utm: { source: 'newsletter', medium: 'email', campaign: 'spring sale', term: '', content: ' hero ' },
    })
    expect(created.statusCode).toBe(201)
    const read = await api('GET', `/api/url/${created.data.id}`)
    expect(read.data.details.utm).toEqual({ source: 'newsletter', medium: 'email', campaign: 'spring sale', content: 'hero' })
    expect(read.data.details.longurl).toBe('https://shop.example/spring?utm_source=old&ref=home#offers')
    const alias = created.data.shorturl.split('/').pop()
    expect(await destinationOf(alias)).toBe('https://shop.example/spring?utm_source=newsletter&ref=home&utm_medium=email&utm_campaign=spring%20sale&utm_content=hero#offers')
    // Others' lists and reads stay theirs.
    expect((await otherApi('GET', `/api/url/${created.data.id}`)).statusCode).toBe(404)
  })

  it('merges them into a targeted destination too', async () => {
    const created = await api('POST', '/api/url/add', {
      url: 'https://example.com/default',
      devicetarget: [{ device: 'iphone', link: 'https://apps.example.com/ios?x=1' }],
      utm: { source: 'qr' },
    })
    const alias = created.data.shorturl.split('/').pop()
    expect(await destinationOf(alias, { 'user-agent': IPHONE })).toBe('https://apps.example.com/ios?x=1&utm_source=qr')
    expect(await destinationOf(alias)).toBe('https://example.com/default?utm_source=qr')
  })

  it('replaces them as a whole on update, keeps them when not given, and keeps them on null, removes them with {}', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/p', utm: { source: 'a', medium: 'b' } })
    const { id } = created.data
    const alias = created.data.shorturl.split('/').pop()
    expect((await api('PUT', `/api/url/${id}/update`, { metatitle: 'Kept' })).statusCode).toBe(200)
    expect((await api('GET', `/api/url/${id}`)).data.details.utm).toEqual({ source: 'a', medium: 'b' })
    await api('PUT', `/api/url/${id}/update`, { utm: { campaign: 'c' } })
    expect((await api('GET', `/api/url/${id}`)).data.details.utm).toEqual({ campaign: 'c' })
    expect(await destinationOf(alias)).toBe('https://example.com/p?utm_campaign=c')
    // null leaves them as they are (ADR 013); {} removes them.
    await api('PUT', `/api/url/${id}/update`, { utm: null })
    expect((await api('GET', `/api/url/${id}`)).data.details.utm).toEqual({ campaign: 'c' })
    await api('PUT', `/api/url/${id}/update`, { utm: {} })
    expect((await api('GET', `/api/url/${id}`)).data.details.utm).toBeNull()
    expect(await destinationOf(alias)).toBe('https://example.com/p')
    await api('PUT', `/api/url/${id}/update`, { utm: { source: 'again' } })
    await api('PUT', `/api/url/${id}/update`, { utm: {} })
    expect((await api('GET', `/api/url/${id}`)).data.details.utm).toBeNull()
    const row = await context.database.db.selectFrom('links').select('options').where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.options).toBe('{}')
  })

  it('answers null for a link without them', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/plain' })
    expect((await api('GET', `/api/url/${created.data.id}`)).data.details.utm).toBeNull()
  })

  it.each([
    ['a value over 200 characters', { source: 'x'.repeat(201) }, 'utm.source'],
    ['a control character', { medium: 'a\u0001b' }, 'utm.medium'],
    ['a line break', { campaign: 'a\nb' }, 'utm.campaign'],
    ['a value that is no text', { term: 5 }, 'utm.term'],
    ['an unknown parameter', { sorce: 'x' }, 'utm'],
    ['no object', 'utm_source=x', 'utm'],
  ])('refuses %s with a 400 naming the field, on create and update', async (_case, utm, field) => {
    const create = await api('POST', '/api/url/add', { url: 'https://example.com/', utm })
    expect(create.statusCode).toBe(400)
    expect(create.data).toMatchObject({ error: 1, code: 'validation_failed', field })
    const link = await api('POST', '/api/url/add', { url: 'https://example.com/' })
    const update = await api('PUT', `/api/url/${link.data.id}/update`, { utm })
    expect(update.statusCode).toBe(400)
    expect(update.data).toMatchObject({ error: 1, code: 'validation_failed', field })
  })
})
