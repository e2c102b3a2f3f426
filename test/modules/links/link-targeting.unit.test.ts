// One targeting shape and one normaliser: what a link's write accepts is exactly what the
// redirect path reads back, and every country, device and language a link may store is one a
// visitor can match.
import { describe, expect, it } from 'vitest'
import { TARGET_DEVICES } from '../../../src/core/link-limits.js'
import { emptyTargeting, mergeTargeting, parseStoredTargeting, serialiseTargeting, type LinkTargeting, type TargetingInput } from '../../../src/modules/links/link-targeting.js'
import { chooseDestination, hasTargeting } from '../../../src/modules/visits/targeting.js'
import { deviceNamesOf, preferredLanguagesOf } from '../../../src/analytics/visitor-reading.js'
import { ValidationError } from '../../../src/core/errors.js'

const LINK = 'https://target.example/'
const URL = 'https://url.example/'

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
const TWO_LETTER_CODES = [...LETTERS].flatMap((first) => [...LETTERS].map((second) => first + second))

/** The targeting a write stores for `input`, or null when the write refuses it. */
function written(input: TargetingInput): LinkTargeting | null {
  try {
    return mergeTargeting(emptyTargeting(), input)
  } catch (error) {
    if (error instanceof ValidationError) return null
    throw error
  }
}

/** What the redirect path reads back from what the write stored. */
function readBack(targeting: LinkTargeting): LinkTargeting {
  return parseStoredTargeting(serialiseTargeting(targeting))
}

const visitor = { country: null, devices: [], languages: [] }

describe('every rule a link may store is one a visitor matches', () => {
  it('countries: every code the write accepts, as the geo lookup answers it', () => {
    const accepted = TWO_LETTER_CODES.filter((code) => written({ geotarget: [{ location: code, link: LINK }] }) !== null)
    // ISO 3166-1 alpha-2 and XK: a test that accepted nothing would prove nothing.
    expect(accepted.length).toBe(250)
    for (const code of accepted) {
      const targeting = readBack(written({ geotarget: [{ location: code, link: LINK }] })!)
      expect(targeting.geo, code).toEqual([{ location: code.toUpperCase(), link: LINK }])
      expect(chooseDestination(URL, targeting, { ...visitor, country: code.toUpperCase() }), code).toBe(LINK)
    }
  })

  it('languages: every code the write accepts, as a browser sends it', () => {
    const accepted = TWO_LETTER_CODES.filter((code) => written({ languagetarget: [{ language: code, link: LINK }] }) !== null)
    expect(accepted.length).toBeGreaterThan(180)
    for (const code of accepted) {
      const targeting = readBack(written({ languagetarget: [{ language: code.toUpperCase(), link: LINK }] })!)
      expect(targeting.language, code).toEqual([{ language: code, link: LINK }])
      for (const header of [code, `${code}-XY, en;q=0.1`, `de;q=0.2, ${code.toUpperCase()};q=0.9`]) {
        expect(chooseDestination(URL, targeting, { ...visitor, languages: preferredLanguagesOf(header) }), header).toBe(LINK)
      }
    }
  })

  it('devices: every device a rule may name is one the visitor parser gives some browser', () => {
    const browsers = [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
    ]
    for (const device of TARGET_DEVICES) {
      const targeting = readBack(written({ devicetarget: [{ device, link: LINK }] })!)
      const matched = browsers.filter((userAgent) => chooseDestination(URL, targeting, { ...visitor, devices: deviceNamesOf(userAgent) }) === LINK)
      expect(matched.length, device).toBeGreaterThan(0)
    }
  })
})

describe('values are codes on write and on read alike', () => {
  it.each([
    [{ geotarget: [{ location: 'United States', link: LINK }] }, 'geotarget.0.location'],
    [{ geotarget: [{ location: 'USA', link: LINK }] }, 'geotarget.0.location'],
    [{ geotarget: [{ location: 'UK', link: LINK }] }, 'geotarget.0.location'],
    [{ languagetarget: [{ language: 'French', link: LINK }] }, 'languagetarget.0.language'],
    [{ languagetarget: [{ language: 'es-MX', link: LINK }] }, 'languagetarget.0.language'],
    [{ languagetarget: [{ language: 'iw', link: LINK }] }, 'languagetarget.0.language'],
    [{ devicetarget: [{ device: 'Mac OS', link: LINK }] }, 'devicetarget.0.device'],
    [{ geotarget: [{ location: 'US', link: 'ftp://files.example/' }] }, 'geotarget.0.link'],
  ] as [TargetingInput, string][])('the write refuses %j naming %s, and the read ignores it', (input, field) => {
    expect(() => mergeTargeting(emptyTargeting(), input)).toThrow(`"${field}"`)
    const stored = JSON.stringify({ geo: input.geotarget, device: input.devicetarget, language: input.languagetarget })
    expect(hasTargeting(parseStoredTargeting(stored))).toBe(false)
  })

  it('reads stored rules as the write would have normalised them, dropping the rest', () => {
    const targeting = parseStoredTargeting(JSON.stringify({
      geo: [{ location: 'us', link: 'https://us.example/' }, { location: 'Nowhere', link: 'https://x.example/' }, { location: 'FR' }, { location: 'US', link: 'https://again.example/' }],
      device: [{ device: 'iPhone', link: 'https://i.example/' }, { link: 'https://y.example/' }, 'junk'],
      language: [{ language: 'ES', link: ' https://es.example/ ' }, { language: 'fr', link: '' }, { language: 'de', link: 'javascript:alert(1)' }],
    }))
    expect(targeting).toEqual({
      geo: [{ location: 'US', link: 'https://us.example/' }],
      device: [{ device: 'iphone', link: 'https://i.example/' }],
      language: [{ language: 'es', link: 'https://es.example/' }],
    })
  })

  it.each(['', '{', 'null', '[]', '"text"', '{"geo": "US"}', '{}'])('reads %j as no targeting', (text) => {
    expect(parseStoredTargeting(text)).toEqual(emptyTargeting())
  })
})
