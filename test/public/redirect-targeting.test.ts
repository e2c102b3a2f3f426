// Targeted links through the real route: country from the socket address (DB-IP Lite data),
// device from User-Agent, language from Accept-Language, with geo > device > language > url.
import { beforeAll, describe, expect, it } from 'vitest'
import { createLink, insertLinkRow } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'
import { linkClickCount, visit } from './redirect-test-support.js'

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const ANDROID_PHONE = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36'
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'

// Addresses whose country the shipped database knows.
const US_ADDRESS = '8.8.8.8'
const GB_ADDRESS = '81.2.69.142'
const DE_ADDRESS = '5.9.0.1'

describe('targeted redirects', () => {
  const { context, owner } = useTestApp()
  let alias: string
  let linkId: number

  beforeAll(async () => {
    const link = await createLink(context, owner, {
      url: 'https://example.com/default',
      geotarget: [{ location: 'US', link: 'https://us.example.com/' }, { location: 'GB', link: 'https://uk.example.com/' }],
      devicetarget: [{ device: 'iphone', link: 'https://apps.apple.com/app' }, { device: 'mobile', link: 'https://m.example.com/' }],
      languagetarget: [{ language: 'fr', link: 'https://fr.example.com/' }, { language: 'de', link: 'https://de.example.com/' }],
    })
    alias = link.alias
    linkId = link.id
  })

  async function destinationFor(remoteAddress: string, headers: Record<string, string> = {}): Promise<string | undefined> {
    const response = await visit(context.app, `/${alias}`, { remoteAddress, headers })
    expect(response.statusCode).toBe(302)
    return response.headers.location as string | undefined
  }

  it('sends visitors to the destination of their country', async () => {
    expect(await destinationFor(US_ADDRESS)).toBe('https://us.example.com/')
    expect(await destinationFor(GB_ADDRESS)).toBe('https://uk.example.com/')
    expect(await destinationFor(`::ffff:${US_ADDRESS}`)).toBe('https://us.example.com/')
  })

  it('puts the country before the device and the language', async () => {
    expect(await destinationFor(US_ADDRESS, { 'user-agent': IPHONE, 'accept-language': 'fr' })).toBe('https://us.example.com/')
  })

  it('uses the device when no country rule matches, the specific device before its category', async () => {
    expect(await destinationFor(DE_ADDRESS, { 'user-agent': IPHONE })).toBe('https://apps.apple.com/app')
    expect(await destinationFor(DE_ADDRESS, { 'user-agent': ANDROID_PHONE })).toBe('https://m.example.com/')
    expect(await destinationFor('127.0.0.1', { 'user-agent': IPHONE, 'accept-language': 'de' })).toBe('https://apps.apple.com/app')
  })

  it('uses the best language, in q order, when neither country nor device matches', async () => {
    expect(await destinationFor(DE_ADDRESS, { 'user-agent': WINDOWS, 'accept-language': 'de-DE,de;q=0.9' })).toBe('https://de.example.com/')
    expect(await destinationFor(DE_ADDRESS, { 'user-agent': WINDOWS, 'accept-language': 'es;q=1, de;q=0.4, fr;q=0.8' })).toBe('https://fr.example.com/')
    expect(await destinationFor(DE_ADDRESS, { 'user-agent': WINDOWS, 'accept-language': 'fr;q=0, de;q=0.1' })).toBe('https://de.example.com/')
  })

  it("falls back to the link's URL", async () => {
    expect(await destinationFor(DE_ADDRESS, { 'user-agent': WINDOWS, 'accept-language': 'es, it' })).toBe('https://example.com/default')
    expect(await destinationFor('10.1.2.3')).toBe('https://example.com/default')
  })

  it('counts every targeted visit on the link', async () => {
    await context.clicks.flush()
    const before = await linkClickCount(context.database.db, linkId)
    await destinationFor(US_ADDRESS, { 'user-agent': WINDOWS })
    await destinationFor(DE_ADDRESS, { 'user-agent': IPHONE })
    await context.clicks.flush()
    expect(await linkClickCount(context.database.db, linkId)).toBe(before + 2)
  })

  it('skips a rule whose destination is not http(s) and uses the next choice', async () => {
    // Written around the API, which refuses such a rule: rows may come from elsewhere (a restore, an old version).
    const link = await insertLinkRow(context.database.db, owner.id, {
      url: 'https://example.com/safe',
      targeting: JSON.stringify({ geo: [{ location: 'US', link: 'javascript:alert(1)' }] }),
    })
    const response = await visit(context.app, `/${link.alias}`, { remoteAddress: US_ADDRESS })
    expect(response.headers.location).toBe('https://example.com/safe')
  })

  it('treats malformed stored targeting as none', async () => {
    const link = await insertLinkRow(context.database.db, owner.id, { url: 'https://example.com/plain', targeting: '{not json' })
    const response = await visit(context.app, `/${link.alias}`, { remoteAddress: US_ADDRESS })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('https://example.com/plain')
  })
})
