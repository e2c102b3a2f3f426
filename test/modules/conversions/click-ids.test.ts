// Conversion tracking's click ids (issue 39, ADR 034): `trackconversions` on a link (create,
// update, read, the workspace's default), the id a visit appends to the destination under the
// workspace's parameter name, and the same id stored with the recorded click, on both databases.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'

describe('click ids of links that track conversions', () => {
  const { context, api, otherApi } = useTestApp()

  async function locationOf(path: string, method: 'GET' | 'HEAD' = 'GET'): Promise<URL> {
    const response = await visit(context.app, path, { method, headers: { 'user-agent': BROWSER } })
    expect(response.statusCode).toBe(302)
    return new URL(response.headers.location as string)
  }

  const aliasOf = (created: { data: { shorturl: string } }) => `/${created.data.shorturl.split('/').pop()}`

  it('appends a fresh unguessable id per click, stored with the click', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://shop.example/landing?ref=ad#top', trackconversions: true })
    expect(created.statusCode).toBe(201)
    expect((await api('GET', `/api/url/${created.data.id}`)).data.details.trackconversions).toBe(true)
    const first = await locationOf(aliasOf(created))
    const second = await locationOf(aliasOf(created))
    const ids = [first.searchParams.get('lw_id'), second.searchParams.get('lw_id')]
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/)
    expect(ids[0]).not.toBe(ids[1])
    // The destination's own query and fragment are kept; the id comes last.
    expect(first.href).toBe(`https://shop.example/landing?ref=ad&lw_id=${ids[0]}#top`)
    await context.clicks.flush()
    const stored = await context.database.db.selectFrom('clicks').select('click_id').where('item_type', '=', 'link').where('item_id', '=', created.data.id).orderBy('id').execute()
    expect(stored.map((row) => row.click_id)).toEqual(ids)
  })

  it('appends nothing for a link that does not track them, nor to a HEAD (which records no click)', async () => {
    const plain = await api('POST', '/api/url/add', { url: 'https://shop.example/plain' })
    expect((await api('GET', `/api/url/${plain.data.id}`)).data.details.trackconversions).toBe(false)
    expect((await locationOf(aliasOf(plain))).href).toBe('https://shop.example/plain')
    const tracked = await api('POST', '/api/url/add', { url: 'https://shop.example/head', trackconversions: true })
    expect((await locationOf(aliasOf(tracked), 'HEAD')).href).toBe('https://shop.example/head')
  })

  it('a visitor cannot choose the id: one in the query is replaced, even with passthrough', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://shop.example/?lw_id=fixed', trackconversions: true, passthrough: true })
    const location = await locationOf(`${aliasOf(created)}?lw_id=mine&x=1`)
    expect(location.searchParams.getAll('lw_id')).toHaveLength(1)
    expect(location.searchParams.get('lw_id')).toMatch(/^[0-9a-f]{32}$/)
    expect(location.searchParams.get('x')).toBe('1')
  })

  it('turns on and off with an update, and a null leaves it as it is', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://shop.example/toggle' })
    const { id } = created.data
    expect((await api('PUT', `/api/url/${id}/update`, { trackconversions: true })).statusCode).toBe(200)
    expect((await api('GET', `/api/url/${id}`)).data.details.trackconversions).toBe(true)
    expect((await locationOf(aliasOf(created))).searchParams.get('lw_id')).toMatch(/^[0-9a-f]{32}$/)
    await api('PUT', `/api/url/${id}/update`, { trackconversions: null })
    expect((await api('GET', `/api/url/${id}`)).data.details.trackconversions).toBe(true)
    await api('PUT', `/api/url/${id}/update`, { trackconversions: false })
    expect((await api('GET', `/api/url/${id}`)).data.details.trackconversions).toBe(false)
    expect((await locationOf(aliasOf(created))).href).toBe('https://shop.example/toggle')
    // Another workspace cannot touch it.
    expect((await otherApi('PUT', `/api/url/${id}/update`, { trackconversions: true })).statusCode).toBe(404)
  })

  it('refuses a value that is no boolean with a 400 naming the field', async () => {
    const create = await api('POST', '/api/url/add', { url: 'https://shop.example/', trackconversions: 'yes' })
    expect(create.statusCode).toBe(400)
    expect(create.data).toMatchObject({ error: 1, field: 'trackconversions' })
    const created = await api('POST', '/api/url/add', { url: 'https://shop.example/' })
    const update = await api('PUT', `/api/url/${created.data.id}/update`, { trackconversions: 1 })
    expect(update.statusCode).toBe(400)
    expect(update.data).toMatchObject({ error: 1, field: 'trackconversions' })
  })

  it('takes the workspace default for new links and the workspace parameter name for every visit', async () => {
    const before = await api('POST', '/api/url/add', { url: 'https://shop.example/before' })
    const settings = await api('PUT', '/api/account/update', { trackconversions: true, clickidparameter: 'ref_click' })
    expect(settings.statusCode).toBe(200)
    expect((await api('GET', '/api/account/settings')).data.data).toMatchObject({ trackconversions: true, clickidparameter: 'ref_click', querypassthrough: false, attributiondays: 90 })
    const after = await api('POST', '/api/url/add', { url: 'https://shop.example/after' })
    const optedOut = await api('POST', '/api/url/add', { url: 'https://shop.example/out', trackconversions: false })
    expect((await api('GET', `/api/url/${after.data.id}`)).data.details.trackconversions).toBe(true)
    expect((await api('GET', `/api/url/${optedOut.data.id}`)).data.details.trackconversions).toBe(false)
    // The default is for links made from now on: one made before keeps what it had.
    expect((await api('GET', `/api/url/${before.data.id}`)).data.details.trackconversions).toBe(false)
    const location = await locationOf(aliasOf(after))
    expect(location.searchParams.get('ref_click')).toMatch(/^[0-9a-f]{32}$/)
    expect(location.searchParams.has('lw_id')).toBe(false)
    // A renamed parameter reaches links already cached.
    await api('PUT', '/api/account/update', { clickidparameter: 'cid' })
    expect((await locationOf(aliasOf(after))).searchParams.get('cid')).toMatch(/^[0-9a-f]{32}$/)
    expect((await locationOf(aliasOf(optedOut))).href).toBe('https://shop.example/out')
    // The other workspace's settings are its own.
    expect((await otherApi('GET', '/api/account/settings')).data.data).toMatchObject({ trackconversions: false, clickidparameter: 'lw_id' })
  })

  it.each([
    [{ clickidparameter: '' }, 'clickidparameter'],
    [{ clickidparameter: 'a b' }, 'clickidparameter'],
    [{ clickidparameter: 'x'.repeat(41) }, 'clickidparameter'],
    [{ attributiondays: 0 }, 'attributiondays'],
    [{ attributiondays: 1.5 }, 'attributiondays'],
    [{ trackconversions: 'on' }, 'trackconversions'],
    [{ querypassthrough: 'on' }, 'querypassthrough'],
  ])('refuses the workspace setting %j with a 400 naming the field', async (body, field) => {
    const response = await api('PUT', '/api/account/update', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, field })
  })
})
