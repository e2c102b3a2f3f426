// App links (issue 23): `ios` and `android` destinations chosen by the visitor's platform before
// any targeting rule (country, device, language), through the API and the visitors' route, on
// both databases.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const ANDROID_PHONE = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36'
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'
const US_ADDRESS = '8.8.8.8'

describe('app links', () => {
  const { context, api } = useTestApp()
  const aliasOf = (shorturl: string) => shorturl.split('/').pop()!

  async function destinationFor(alias: string, userAgent: string, headers: Record<string, string> = {}) {
    const response = await visit(context.app, `/${alias}`, { headers: { 'user-agent': userAgent, ...headers }, remoteAddress: US_ADDRESS })
    expect(response.statusCode).toBe(302)
    return response.headers.location
  }

  it('sends iOS and Android visitors to their app links, before country, device and language rules', async () => {
    const created = await api('POST', '/api/url/add', {
      url: 'https://example.com/web',
      ios: 'https://apps.apple.com/app/id123',
      android: 'https://play.google.com/store/apps/details?id=com.example',
      geotarget: [{ location: 'US', link: 'https://us.example.com/' }],
      devicetarget: [{ device: 'iphone', link: 'https://example.com/iphone' }, { device: 'android', link: 'https://example.com/android' }],
      languagetarget: [{ language: 'fr', link: 'https://fr.example.com/' }],
      utm: { source: 'print' },
    })
    expect(created.statusCode).toBe(201)
    const alias = aliasOf(created.data.shorturl)
    expect(await destinationFor(alias, IPHONE, { 'accept-language': 'fr' })).toBe('https://apps.apple.com/app/id123?utm_source=print')
    expect(await destinationFor(alias, IPAD)).toBe('https://apps.apple.com/app/id123?utm_source=print')
    expect(await destinationFor(alias, ANDROID_PHONE)).toBe('https://play.google.com/store/apps/details?id=com.example&utm_source=print')
    // Other platforms: the targeting rules as before.
    expect(await destinationFor(alias, WINDOWS)).toBe('https://us.example.com/?utm_source=print')
    const read = await api('GET', `/api/url/${created.data.id}`)
    expect(read.data.details).toMatchObject({ ios: 'https://apps.apple.com/app/id123', android: 'https://play.google.com/store/apps/details?id=com.example' })
  })

  it('leaves the other platform to the targeting rules when only one app link is set, and keeps one on null and removes it with ""', async () => {
    const created = await api('POST', '/api/url/add', {
      url: 'https://example.com/web',
      ios: 'https://apps.apple.com/app/id9',
      devicetarget: [{ device: 'android', link: 'https://example.com/android' }],
    })
    const alias = aliasOf(created.data.shorturl)
    expect(await destinationFor(alias, IPHONE)).toBe('https://apps.apple.com/app/id9')
    expect(await destinationFor(alias, ANDROID_PHONE)).toBe('https://example.com/android')
    await api('PUT', `/api/url/${created.data.id}/update`, { ios: '', android: 'https://play.google.com/store/apps/details?id=x' })
    expect(await destinationFor(alias, IPHONE)).toBe('https://example.com/web')
    expect(await destinationFor(alias, ANDROID_PHONE)).toBe('https://play.google.com/store/apps/details?id=x')
    // null leaves it as it is (ADR 013); "" removes it.
    await api('PUT', `/api/url/${created.data.id}/update`, { android: null })
    expect(await destinationFor(alias, ANDROID_PHONE)).toBe('https://play.google.com/store/apps/details?id=x')
    await api('PUT', `/api/url/${created.data.id}/update`, { android: '' })
    expect(await destinationFor(alias, ANDROID_PHONE)).toBe('https://example.com/android')
    expect((await api('GET', `/api/url/${created.data.id}`)).data.details).toMatchObject({ ios: null, android: null })
  })

  it.each([
    ['ios', 'itms-apps://apps.apple.com/app/id1'],
    ['android', 'market://details?id=com.example'],
    ['ios', 'https://'],
    ['android', 42],
  ])('refuses %s = %s with a 400 naming the field, on create and update', async (field, value) => {
    const create = await api('POST', '/api/url/add', { url: 'https://example.com/', [field]: value })
    expect(create.statusCode).toBe(400)
    expect(create.data).toMatchObject({ error: 1, code: 'validation_failed', field })
    const link = await api('POST', '/api/url/add', { url: 'https://example.com/' })
    const update = await api('PUT', `/api/url/${link.data.id}/update`, { [field]: value })
    expect(update.statusCode).toBe(400)
    expect(update.data).toMatchObject({ error: 1, code: 'validation_failed', field })
  })
})
