import { describe, expect, it } from 'vitest'
import { fieldError } from '../../helpers/envelope.js'
import { apiClient, createAccount, type ApiClient, useTestApp } from '../../helpers/test-app.js'

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('pixel endpoints', () => {
  let tagCounter = 1_000_000_000_000

  /** A Facebook pixel id no other test uses. */
  function uniqueFacebookTag(): string {
    tagCounter += 1
    return String(tagCounter)
  }

  async function listAll(client: ApiClient) {
    return (await client('GET', '/api/pixels?limit=100')).data.data.pixels as Array<{ id: number; type: string; name: string; tag: string; date: string }>
  }

  const { context, api, otherApi } = useTestApp()

  it('creates a pixel and answers 201 with {error:0, id, type, name, tag, date}, the tag in the provider’s spelling', async () => {
    const response = await api('POST', '/api/pixel/add', { type: 'gtmpixel', name: '  Main container ', tag: 'gtm-k9x2lm7' })
    expect(response.statusCode).toBe(201)
    expect(response.data).toEqual({ error: 0, id: expect.any(Number), type: 'gtmpixel', name: 'Main container', tag: 'GTM-K9X2LM7', date: expect.stringMatching(DATE_TIME) })
    const listed = (await listAll(api)).find((pixel) => pixel.id === response.data.id)
    expect(listed).toEqual({ id: response.data.id, type: 'gtmpixel', name: 'Main container', tag: 'GTM-K9X2LM7', date: response.data.date })
  })

  it('accepts every provider with a tag of its form', async () => {
    const client = apiClient(context.app, (await createAccount(context)).apiKey)
    const samples: Array<[string, string]> = [
      ['gtmpixel', 'GTM-ABC1234'], ['gapixel', 'G-ABCDE12345'], ['fbpixel', '123456789012345'], ['adwordspixel', 'AW-123456789/label_1'],
      ['linkedinpixel', '1234567'], ['twitterpixel', 'o1a2b'], ['adrollpixel', 'ABCDEFGHIJKLMNOPQRSTUV'], ['quorapixel', '0123456789abcdef0123456789abcdef'],
      ['pinterest', '2612345678901'], ['bing', '12345678'], ['snapchat', '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d'], ['reddit', 't2_abc123'], ['tiktok', 'C4ABCDEFGHIJKLMNOPQR'],
    ]
    for (const [type, tag] of samples) {
      const response = await client('POST', '/api/pixel/add', { type, name: `${type} pixel`, tag })
      expect(response.statusCode, type).toBe(201)
      expect(response.data).toMatchObject({ type, tag })
    }
    expect((await client('GET', '/api/pixels')).data.data.result).toBe(samples.length)
  })

  it('refuses the same provider and tag twice in one account, also when spelled differently', async () => {
    await api('POST', '/api/pixel/add', { type: 'gapixel', name: 'Analytics', tag: 'G-DUPL1CATE' })
    const again = await api('POST', '/api/pixel/add', { type: 'gapixel', name: 'Analytics again', tag: 'g-dupl1cate' })
    expect(again.statusCode).toBe(400)
    expect(again.data).toEqual({ error: 1, message: 'A pixel with this provider and tag already exists.', code: 'duplicate', field: 'tag' })
  })

  it('allows the same tag for another provider and in another account', async () => {
    const tag = uniqueFacebookTag()
    expect((await api('POST', '/api/pixel/add', { type: 'fbpixel', name: 'Facebook', tag })).statusCode).toBe(201)
    expect((await api('POST', '/api/pixel/add', { type: 'pinterest', name: 'Pinterest', tag })).statusCode).toBe(201)
    expect((await otherApi('POST', '/api/pixel/add', { type: 'fbpixel', name: 'Facebook', tag })).statusCode).toBe(201)
  })

  it.each([
    [{ name: 'n', tag: 'GTM-ABC1234' }, 'The field "type" is required.'],
    [{ type: 'myspace', name: 'n', tag: 'GTM-ABC1234' }, 'The field "type" must be one of gtmpixel, gapixel, fbpixel, adwordspixel, linkedinpixel, twitterpixel, adrollpixel, quorapixel, pinterest, bing, snapchat, reddit, tiktok.'],
    [{ type: 3, name: 'n', tag: 'GTM-ABC1234' }, 'The field "type" must be one of gtmpixel, gapixel, fbpixel, adwordspixel, linkedinpixel, twitterpixel, adrollpixel, quorapixel, pinterest, bing, snapchat, reddit, tiktok.'],
    [{ type: 'gtmpixel', tag: 'GTM-ABC1234' }, 'The field "name" is required.'],
    [{ type: 'gtmpixel', name: '', tag: 'GTM-ABC1234' }, 'The field "name" must be 1 to 100 characters.'],
    [{ type: 'gtmpixel', name: 'x'.repeat(101), tag: 'GTM-ABC1234' }, 'The field "name" must be 1 to 100 characters.'],
    [{ type: 'gtmpixel', name: ['x'], tag: 'GTM-ABC1234' }, 'The field "name" must be 1 to 100 characters.'],
    [{ type: 'gtmpixel', name: '   ', tag: 'GTM-ABC1234' }, 'The field "name" must be 1 to 100 characters.'],
    [{ type: 'gtmpixel', name: 'n' }, 'The field "tag" is required.'],
    [{ type: 'gtmpixel', name: 'n', tag: '' }, 'The field "tag" must be the pixel id given by the provider.'],
    [{ type: 'gtmpixel', name: 'n', tag: 1234567 }, 'The field "tag" must be the pixel id given by the provider.'],
    [{ type: 'gtmpixel', name: 'n', tag: 'x'.repeat(101) }, 'The field "tag" must be the pixel id given by the provider.'],
    [{ type: 'gtmpixel', name: 'n', tag: 'UA-1234-1' }, 'The field "tag" must be a Google Tag Manager container id like GTM-XXXXXXX.'],
    [{ type: 'fbpixel', name: 'n', tag: 'GTM-ABC1234' }, 'The field "tag" must be a Facebook pixel id of 10 to 20 digits like 123456789012345.'],
    [{ type: 'snapchat', name: 'n', tag: '<script>alert(1)</script>' }, 'The field "tag" must be a Snapchat pixel id in UUID form like 1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d.'],
  ])('refuses %j with a 400: %s', async (body, message) => {
    const response = await api('POST', '/api/pixel/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
  })

  it('ignores unknown body fields', async () => {
    const response = await api('POST', '/api/pixel/add', { type: 'bing', name: 'Bing', tag: '87654321', account_id: 999, evil: true })
    expect(response.statusCode).toBe(201)
    expect(Object.keys(response.data).sort()).toEqual(['date', 'error', 'id', 'name', 'tag', 'type'])
  })

  it('updates name and tag, checking the tag against the stored type; the type cannot change', async () => {
    const created = await api('POST', '/api/pixel/add', { type: 'linkedinpixel', name: 'LinkedIn', tag: '1234567' })
    const id = created.data.id
    const updated = await api('PUT', `/api/pixel/${id}/update`, { name: 'LinkedIn EU', tag: '7654321', type: 'fbpixel' })
    expect(updated.statusCode).toBe(200)
    expect(updated.data).toEqual({ error: 0, message: 'Pixel has been updated successfully.' })
    expect((await listAll(api)).find((pixel) => pixel.id === id)).toEqual({ id, type: 'linkedinpixel', name: 'LinkedIn EU', tag: '7654321', date: created.data.date })
    const wrongForm = await api('PUT', `/api/pixel/${id}/update`, { tag: 'GTM-ABC1234' })
    expect(wrongForm.statusCode).toBe(400)
    expect(wrongForm.data.message).toBe('The field "tag" must be a LinkedIn Insight Tag partner id of 4 to 12 digits like 1234567.')
    expect((await api('PUT', `/api/pixel/${id}/update`, { name: 'Only the name' })).statusCode).toBe(200)
    expect((await api('PUT', `/api/pixel/${id}/update`, {})).statusCode).toBe(200)
    expect((await listAll(api)).find((pixel) => pixel.id === id)).toMatchObject({ name: 'Only the name', tag: '7654321' })
  })

  it.each([
    [{ name: '' }, 'The field "name" must be 1 to 100 characters.'],
    [{ name: 'x'.repeat(101) }, 'The field "name" must be 1 to 100 characters.'],
    [{ name: ' ' }, 'The field "name" must be 1 to 100 characters.'],
    [{ tag: '' }, 'The field "tag" must be the pixel id given by the provider.'],
    [{ tag: false }, 'The field "tag" must be the pixel id given by the provider.'],
  ])('refuses the update %j with a 400: %s', async (body, message) => {
    const created = await api('POST', '/api/pixel/add', { type: 'fbpixel', name: 'To update', tag: uniqueFacebookTag() })
    const response = await api('PUT', `/api/pixel/${created.data.id}/update`, body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
  })

  it('keeps provider and tag unique on update, and lets a pixel keep its own tag', async () => {
    const taken = uniqueFacebookTag()
    await api('POST', '/api/pixel/add', { type: 'fbpixel', name: 'First', tag: taken })
    const second = await api('POST', '/api/pixel/add', { type: 'fbpixel', name: 'Second', tag: uniqueFacebookTag() })
    const clash = await api('PUT', `/api/pixel/${second.data.id}/update`, { tag: taken })
    expect(clash.statusCode).toBe(400)
    expect(clash.data.message).toBe('A pixel with this provider and tag already exists.')
    expect((await api('PUT', `/api/pixel/${second.data.id}/update`, { tag: second.data.tag, name: 'Second again' })).statusCode).toBe(200)
  })

  // Deleting, another account's pixel, path ids, the list and the plan limit: test/http/owned-resources.test.ts.
  it('frees the provider and tag of a deleted pixel', async () => {
    const created = await api('POST', '/api/pixel/add', { type: 'reddit', name: 'Reddit', tag: 't2_todelete' })
    expect((await api('DELETE', `/api/pixel/${created.data.id}/delete`)).statusCode).toBe(200)
    expect((await api('POST', '/api/pixel/add', { type: 'reddit', name: 'Reddit', tag: 't2_todelete' })).statusCode).toBe(201)
  })
})
