// Choosing a targeted link's destination, and the offline country lookup. How rules are read
// is tested in test/modules/links/link-targeting.unit.test.ts, how visitors are read in
// test/analytics/visitor-reading.unit.test.ts.
import { describe, expect, it } from 'vitest'
import { countryOf, normaliseIp } from '../../../src/analytics/geo.js'
import { parseStoredTargeting } from '../../../src/modules/links/link-targeting.js'
import { appPlatformOf, chooseDestination, hasTargeting, type VisitorProfile } from '../../../src/modules/visits/targeting.js'

describe('chooseDestination', () => {
  const targeting = parseStoredTargeting(JSON.stringify({
    geo: [{ location: 'US', link: 'https://geo-us/' }],
    device: [{ device: 'mobile', link: 'https://device-mobile/' }, { device: 'iphone', link: 'https://device-iphone/' }],
    language: [{ language: 'de', link: 'https://lang-de/' }, { language: 'fr', link: 'https://lang-fr/' }],
  }))
  const visitor = (profile: Partial<VisitorProfile>): VisitorProfile => ({ country: null, devices: [], languages: [], ...profile })

  it('puts geo before device before language before the URL', () => {
    const everything = visitor({ country: 'US', devices: ['iphone', 'ios', 'mobile'], languages: ['de'] })
    expect(chooseDestination('https://url/', targeting, everything)).toBe('https://geo-us/')
    expect(chooseDestination('https://url/', targeting, { ...everything, country: 'CA' })).toBe('https://device-iphone/')
    expect(chooseDestination('https://url/', targeting, { ...everything, country: 'CA', devices: ['windows', 'desktop'] })).toBe('https://lang-de/')
    expect(chooseDestination('https://url/', targeting, visitor({ country: 'CA', devices: ['windows'], languages: ['es'] }))).toBe('https://url/')
  })

  it('needs some rule before the visitor is looked at', () => {
    expect(hasTargeting(targeting)).toBe(true)
    expect(hasTargeting(parseStoredTargeting('{}'))).toBe(false)
  })

  it("prefers the visitor's most specific device and best language over rule order", () => {
    expect(chooseDestination('https://url/', targeting, visitor({ devices: ['android', 'mobile'] }))).toBe('https://device-mobile/')
    expect(chooseDestination('https://url/', targeting, visitor({ languages: ['fr', 'de'] }))).toBe('https://lang-fr/')
  })
})

describe('countryOf', () => {
  it('finds countries in the shipped DB-IP database', async () => {
    expect(await countryOf('8.8.8.8')).toBe('US')
    expect(await countryOf('81.2.69.142')).toBe('GB')
    expect(await countryOf('::ffff:8.8.8.8')).toBe('US')
  })

  it('knows no country for private, loopback or malformed addresses', async () => {
    expect(await countryOf('127.0.0.1')).toBeNull()
    expect(await countryOf('10.0.0.1')).toBeNull()
    expect(await countryOf('not an ip')).toBeNull()
    expect(await countryOf('')).toBeNull()
  })

  it('unwraps IPv4-mapped IPv6 addresses only', () => {
    expect(normaliseIp('::ffff:1.2.3.4')).toBe('1.2.3.4')
    expect(normaliseIp('2001:db8::1')).toBe('2001:db8::1')
  })
})

describe('appPlatformOf', () => {
  it('reads iPhones, iPads and iPods as iOS and Android phones and tablets as Android', () => {
    expect(appPlatformOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe('ios')
    expect(appPlatformOf('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toBe('ios')
    expect(appPlatformOf('Mozilla/5.0 (iPod touch; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.0 Mobile/15E148 Safari/604.1')).toBe('ios')
    expect(appPlatformOf('Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36')).toBe('android')
    expect(appPlatformOf('Mozilla/5.0 (Linux; Android 12; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Safari/537.36')).toBe('android')
    expect(appPlatformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15')).toBe('')
    expect(appPlatformOf(undefined)).toBe('')
  })
})
