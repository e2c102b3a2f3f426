// Targeting rules, the visitor's device and languages, and the offline country lookup.
import { describe, expect, it } from 'vitest'
import { countryOf, normaliseIp } from '../../src/analytics/geo.js'
import { chooseDestination, countryCodeOf, deviceNameOf, hasTargeting, languageCodeOf, parseTargeting, type VisitorProfile } from '../../src/modules/redirects/targeting.js'
import { deviceNamesOf, preferredLanguagesOf } from '../../src/public/visitor.js'

const USER_AGENTS = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Safari/604.1',
  androidPhone: 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36',
  androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  ubuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
}

describe('deviceNamesOf', () => {
  it.each([
    ['iphone', ['iphone', 'ios', 'mobile']],
    ['ipad', ['ipad', 'ios', 'tablet']],
    ['androidPhone', ['android', 'mobile']],
    ['androidTablet', ['android', 'tablet']],
    ['windows', ['windows', 'desktop']],
    ['mac', ['macos', 'desktop']],
    ['ubuntu', ['linux', 'desktop']],
    ['linux', ['linux', 'desktop']],
  ] as const)('names %s %j', (device, names) => {
    expect(deviceNamesOf(USER_AGENTS[device])).toEqual(names)
  })

  it('knows nothing of a missing or unknown user agent', () => {
    expect(deviceNamesOf(undefined)).toEqual([])
    expect(deviceNamesOf('curl/8.0')).toEqual([])
  })
})

describe('preferredLanguagesOf', () => {
  it.each([
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', ['fr', 'en', 'de']],
    ['en;q=0.3, de;q=0.9, es', ['es', 'de', 'en']],
    ['de;q=0, it', ['it']],
    ['pt-BR;q=0.5,ja;q=0.5', ['pt', 'ja']],
    ['not a language, 12, x', []],
    ['en;q=abc, fr', ['fr']],
    ['', []],
  ])('reads %j as %j', (header, languages) => {
    expect(preferredLanguagesOf(header)).toEqual(languages)
  })
})

describe('rule values', () => {
  it('reads countries as codes or English names', () => {
    expect(countryCodeOf('us')).toBe('US')
    expect(countryCodeOf(' Germany ')).toBe('DE')
    expect(countryCodeOf('United Kingdom')).toBe('GB')
    expect(countryCodeOf('USA')).toBe('US')
    expect(countryCodeOf('uk')).toBe('GB')
    expect(countryCodeOf('Atlantis')).toBeNull()
  })

  it('reads languages as tags or English names', () => {
    expect(languageCodeOf('FR')).toBe('fr')
    expect(languageCodeOf('pt-BR')).toBe('pt')
    expect(languageCodeOf('German')).toBe('de')
    expect(languageCodeOf('Hebrew')).toBe('he')
    expect(languageCodeOf('iw')).toBe('he')
    expect(languageCodeOf('Klingonese')).toBeNull()
  })

  it('reads device names the way users write them', () => {
    expect(deviceNameOf('iPhone')).toBe('iphone')
    expect(deviceNameOf('Mac OS')).toBe('macos')
    expect(deviceNameOf('Macintosh')).toBe('macos')
    expect(deviceNameOf('Windows Phone')).toBe('windowsphone')
    expect(deviceNameOf('Smartphone')).toBe('mobile')
  })
})

describe('parseTargeting', () => {
  it('normalises the stored lists and drops incomplete rules', () => {
    const targeting = parseTargeting(JSON.stringify({
      geo: [{ location: 'us', link: 'https://us.example/' }, { location: 'Nowhere', link: 'https://x.example/' }, { location: 'FR' }],
      device: [{ device: 'iPhone', link: 'https://i.example/' }, { link: 'https://y.example/' }, 'junk'],
      language: [{ language: 'es-MX', link: ' https://es.example/ ' }, { language: 'fr', link: '' }],
    }))
    expect(targeting).toEqual({
      geo: [{ country: 'US', link: 'https://us.example/' }],
      device: [{ device: 'iphone', link: 'https://i.example/' }],
      language: [{ language: 'es', link: 'https://es.example/' }],
    })
    expect(hasTargeting(targeting)).toBe(true)
  })

  it.each(['', '{', 'null', '[]', '"text"', '{"geo": "US"}', '{}'])('reads %j as no targeting', (text) => {
    expect(hasTargeting(parseTargeting(text))).toBe(false)
  })
})

describe('chooseDestination', () => {
  const targeting = parseTargeting(JSON.stringify({
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
