import { describe, expect, it } from 'vitest'
import { checkHttpUrl as checkDestination } from '../../../src/core/urls.js'
import { formatLinkType, parseExpiry, parseLinkType } from '../../../src/modules/links/link-input.js'
import { emptyTargeting, mergeTargeting, parseStoredTargeting, serialiseTargeting } from '../../../src/modules/links/link-targeting.js'

describe('link field rules', () => {
  it.each(['https://example.com', 'http://a.b/c?d=e#f', ' https://trim.example '])('accepts the destination %j', (url) => {
    expect(checkDestination('url', url)).toBe(url.trim())
  })

  it.each(['javascript:alert(1)', 'data:text/html,x', 'ftp://a.example', 'https://', 'http://[::1', 'mailto:a@b.c', `https://a.example/${'x'.repeat(2048)}`])('refuses the destination %j', (url) => {
    expect(() => checkDestination('geotarget.0.link', url)).toThrow('The field "geotarget.0.link" must be an http or https URL.')
  })

  it.each([
    ['direct', { type: 'direct' }],
    ['frame', { type: 'frame' }],
    ['splash', { type: 'splash', splashId: null }],
    [7, { type: 'splash', splashId: 7 }],
    ['7', { type: 'splash', splashId: 7 }],
    ['overlay-3', { type: 'overlay', overlayId: 3 }],
    ['99999999999', { type: 'splash', splashId: 0 }],
    ['overlay-99999999999', { type: 'overlay', overlayId: 0 }],
  ])('reads the type %j', (raw, expected) => {
    expect(parseLinkType(raw)).toEqual(expected)
  })

  it('refuses an unknown type', () => {
    expect(() => parseLinkType('popup')).toThrow('"type"')
  })

  it.each([
    [{ type: 'direct', splashId: null, overlayId: null }, 'direct'],
    [{ type: 'splash', splashId: null, overlayId: null }, 'splash'],
    [{ type: 'splash', splashId: 4, overlayId: null }, '4'],
    [{ type: 'overlay', splashId: null, overlayId: 9 }, 'overlay-9'],
    [{ type: 'overlay', splashId: null, overlayId: null }, 'frame'],
  ])('shows the stored type %j as %s', (stored, shown) => {
    expect(formatLinkType(stored)).toBe(shown)
  })

  it('parses expiry dates and refuses the past and impossible dates', () => {
    const now = new Date('2030-06-01T12:00:00Z')
    expect(parseExpiry('2030-06-02', now)).toBe('2030-06-02 00:00:00')
    expect(parseExpiry('2030-06-01 12:00:01', now)).toBe('2030-06-01 12:00:01')
    expect(() => parseExpiry('2030-06-01 12:00:00', now)).toThrow('must be in the future')
    expect(() => parseExpiry('2030-06-01', now)).toThrow('must be in the future')
    expect(() => parseExpiry('2031-02-29', now)).toThrow('"expiry"')
  })
})

describe('link targeting', () => {
  it('normalises codes, keeps lists not given, and stores only non-empty lists', () => {
    const first = mergeTargeting(emptyTargeting(), {
      geotarget: [{ location: 'gb', link: 'https://uk.example' }],
      languagetarget: [{ language: 'DE', link: 'https://de.example' }],
    })
    expect(first).toEqual({ geo: [{ location: 'GB', link: 'https://uk.example' }], device: [], language: [{ language: 'de', link: 'https://de.example' }] })
    expect(JSON.parse(serialiseTargeting(first))).toEqual({ geo: first.geo, language: first.language })
    const second = mergeTargeting(parseStoredTargeting(serialiseTargeting(first)), { geotarget: [], devicetarget: [{ device: 'macos', link: 'https://mac.example' }] })
    expect(second).toEqual({ geo: [], device: [{ device: 'macos', link: 'https://mac.example' }], language: first.language })
    expect(parseStoredTargeting('{}')).toEqual(emptyTargeting())
  })

  it.each([
    [{ geotarget: [{ location: 'UK', link: 'https://uk.example' }] }, 'geotarget.0.location'],
    [{ geotarget: [{ location: 'US', link: 'https://a.example' }, { location: 'us', link: 'https://b.example' }] }, 'geotarget'],
    [{ languagetarget: [{ language: 'qq', link: 'https://a.example' }] }, 'languagetarget.0.language'],
    [{ devicetarget: [{ device: 'ipad' as const, link: 'javascript:void(0)' }] }, 'devicetarget.0.link'],
  ])('refuses %j naming %s', (input, field) => {
    expect(() => mergeTargeting(emptyTargeting(), input)).toThrow(`"${field}"`)
  })
})
