// Query-string passthrough (issue 39, ADR 034) through the redirect: off until the workspace or
// the link turns it on (visitors' queries were never passed on before), the merge rule with the
// destination's query and the link's UTM parameters, on both databases.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'

describe('visitors\' query strings passed on to the destination', () => {
  const { context, api, otherApi } = useTestApp()

  async function locationOf(path: string): Promise<string> {
    const response = await visit(context.app, path)
    expect(response.statusCode).toBe(302)
    return response.headers.location as string
  }

  const aliasOf = (created: { data: { shorturl: string } }) => `/${created.data.shorturl.split('/').pop()}`

  it('passes nothing on by default: what existing links did before', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://shop.example/p?a=1' })
    expect((await api('GET', `/api/url/${created.data.id}`)).data.details.passthrough).toBeNull()
    expect(await locationOf(`${aliasOf(created)}?gclid=xyz&a=2`)).toBe('https://shop.example/p?a=1')
  })

  it('merges by the rule: the visitor value in the destination order, new keys after, the link UTM wins', async () => {
    const created = await api('POST', '/api/url/add', {
      url: 'https://shop.example/p?utm_medium=site&a=1&b=2#frag',
      utm: { source: 'newsletter' },
      passthrough: true,
    })
    expect((await api('GET', `/api/url/${created.data.id}`)).data.details.passthrough).toBe(true)
    expect(await locationOf(`${aliasOf(created)}?b=9&utm_source=visitor&utm_medium=cpc&gclid=xyz`))
      .toBe('https://shop.example/p?utm_medium=cpc&a=1&b=9&utm_source=newsletter&gclid=xyz#frag')
    // Without a visitor query the destination is as before.
    expect(await locationOf(aliasOf(created))).toBe('https://shop.example/p?utm_medium=site&a=1&b=2&utm_source=newsletter#frag')
  })

  it('follows the workspace switch unless the link says otherwise, and "" returns a link to the workspace\'s', async () => {
    const inherits = await api('POST', '/api/url/add', { url: 'https://shop.example/inherits' })
    const refuses = await api('POST', '/api/url/add', { url: 'https://shop.example/refuses', passthrough: false })
    expect(await locationOf(`${aliasOf(inherits)}?fbclid=1`)).toBe('https://shop.example/inherits')
    expect((await api('PUT', '/api/account/update', { querypassthrough: true })).statusCode).toBe(200)
    // Cached links learn of it.
    expect(await locationOf(`${aliasOf(inherits)}?fbclid=1`)).toBe('https://shop.example/inherits?fbclid=1')
    expect(await locationOf(`${aliasOf(refuses)}?fbclid=1`)).toBe('https://shop.example/refuses')
    await api('PUT', `/api/url/${refuses.data.id}/update`, { passthrough: '' })
    expect((await api('GET', `/api/url/${refuses.data.id}`)).data.details.passthrough).toBeNull()
    expect(await locationOf(`${aliasOf(refuses)}?fbclid=1`)).toBe('https://shop.example/refuses?fbclid=1')
    // The other workspace's links are untouched.
    const others = await otherApi('POST', '/api/url/add', { url: 'https://shop.example/others' })
    expect(await locationOf(`${aliasOf(others)}?fbclid=1`)).toBe('https://shop.example/others')
    await api('PUT', '/api/account/update', { querypassthrough: false })
    expect(await locationOf(`${aliasOf(inherits)}?fbclid=1`)).toBe('https://shop.example/inherits')
  })

  it('passes on to a targeted destination and a split-test variant alike, and survives odd text', async () => {
    const created = await api('POST', '/api/url/add', {
      url: 'https://shop.example/default',
      devicetarget: [{ device: 'iphone', link: 'https://apps.example.com/ios?x=1' }],
      passthrough: true,
    })
    const iphone = await visit(context.app, `${aliasOf(created)}?x=2&y=%E2%98%83`, { headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' } })
    expect(iphone.headers.location).toBe('https://apps.example.com/ios?x=2&y=%E2%98%83')
    expect(await locationOf(`${aliasOf(created)}?q="<x>"`)).toBe('https://shop.example/default?q=%22%3Cx%3E%22')
  })

  it('refuses a passthrough that is no boolean with a 400 naming the field', async () => {
    const response = await api('POST', '/api/url/add', { url: 'https://shop.example/', passthrough: 'yes' })
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, field: 'passthrough' })
  })
})
