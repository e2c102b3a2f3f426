// The link form's rules and the request bodies built from its values.
import { describe, expect, it } from 'vitest'
import { emptyLinkForm, isHttpUrl, toCreateBody, toUpdateBody, validateLinkForm, valuesFromDetails, type LinkDetails } from './link-form'

describe('link form rules', () => {
  it('accepts http(s) destinations only, as the server does', () => {
    expect(isHttpUrl('https://example.com/a?b=c')).toBe(true)
    expect(isHttpUrl('HTTP://EXAMPLE.COM')).toBe(true)
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'ftp://example.com', 'https://', 'example.com', `https://example.com/${'a'.repeat(2048)}`]) {
      expect(isHttpUrl(url)).toBe(false)
    }
  })

  it('limits the meta texts and the password like the server', () => {
    const errors = validateLinkForm({ ...emptyLinkForm, url: 'https://example.com', metatitle: 'x'.repeat(201), metadescription: 'y'.repeat(501), password: 'z'.repeat(129) })
    expect(Object.keys(errors).sort()).toEqual(['metadescription', 'metatitle', 'password'])
  })

  it('keeps an imported alias outside the API\'s rule when it is not changed (ADR 028), and checks a changed one', () => {
    const values = { ...emptyLinkForm, url: 'https://example.com', custom: '1' }
    expect(validateLinkForm(values, new Date(), '1')).toEqual({})
    expect(toUpdateBody(values, '1')).not.toHaveProperty('custom')
    expect(validateLinkForm({ ...values, custom: 'a~b' }, new Date(), '1')).toHaveProperty('custom')
    expect(toUpdateBody({ ...values, custom: 'renamed' }, '1').custom).toBe('renamed')
  })

  it('clears emptied fields on update and keeps an untouched password', () => {
    const details = {
      id: 1, alias: 'spring', shorturl: 'https://lw.test/spring', longurl: 'https://example.com', title: 'Old title', description: null,
      tags: [], clicks: 0, uniqueclicks: 0, date: '2026-01-01 00:00:00', domain: 'https://go.example.com', campaign: 4, pixels: [2],
      type: 'direct', expiry: null, password: true, targeting: { geo: [{ location: 'FR', link: 'https://example.fr' }], device: [], language: [] }, utm: null, clicklimit: null, expiredurl: null, ios: null, android: null, variants: null,
      brokenurl: null, trackconversions: false, passthrough: null, card: null, health: { state: 'unknown', status: null, checkedat: null },
    } as LinkDetails
    const values = valuesFromDetails(details, (origin) => (origin === 'https://go.example.com' ? 8 : undefined))
    expect(values).toMatchObject({ domain: '8', campaign: '4', metatitle: 'Old title', geotarget: [{ location: 'FR', link: 'https://example.fr' }] })
    const body = toUpdateBody({ ...values, metatitle: '', campaign: '', domain: '' })
    // `""` clears (null would leave the field unchanged: ADR 013).
    expect(body).toMatchObject({ metatitle: '', campaign: 0, domain: '', expiry: '', custom: 'spring' })
    expect(body).not.toHaveProperty('password')
    expect(toUpdateBody({ ...values, removePassword: true }).password).toBe('')
  })

  it('sends conversion tracking as chosen: a new link left alone takes the workspace\'s default, a saved one keeps its own', () => {
    expect(toCreateBody({ ...emptyLinkForm, url: 'https://shop.example' })).not.toHaveProperty('trackconversions')
    expect(toCreateBody({ ...emptyLinkForm, url: 'https://shop.example', trackconversions: true }).trackconversions).toBe(true)
    expect(toCreateBody({ ...emptyLinkForm, url: 'https://shop.example', trackconversions: false }).trackconversions).toBe(false)
    const details = {
      id: 2, alias: 'shop', shorturl: 'https://lw.test/shop', longurl: 'https://shop.example', title: null, description: null, tags: [], clicks: 0, uniqueclicks: 0,
      date: '2026-01-01 00:00:00', domain: null, campaign: null, pixels: [], type: 'direct', expiry: null, password: false, targeting: { geo: [], device: [], language: [] },
      utm: null, clicklimit: null, expiredurl: null, ios: null, android: null, variants: null, brokenurl: null, trackconversions: true, passthrough: null, card: null,
      health: { state: 'unknown', status: null, checkedat: null },
    } as LinkDetails
    const values = valuesFromDetails(details, () => undefined)
    expect(values.trackconversions).toBe(true)
    expect(toUpdateBody(values).trackconversions).toBe(true)
    expect(toUpdateBody({ ...values, trackconversions: false }).trackconversions).toBe(false)
  })

  it('reads the UTM parameters of a link, sends them on update, and removes them with {} when emptied', () => {
    const details = {
      id: 3, alias: 'utm', shorturl: 'https://lw.test/utm', longurl: 'https://example.com', title: null, description: null, clicks: 0, uniqueclicks: 0,
      date: '2026-01-01 00:00:00', domain: null, campaign: null, pixels: [], type: 'direct', expiry: null, password: false,
      targeting: { geo: [], device: [], language: [] }, utm: { source: 'mail', campaign: 'june' }, clicklimit: null, expiredurl: null, ios: null, android: null, variants: null,
      tags: [],
      brokenurl: null, trackconversions: false, passthrough: null, card: null, health: { state: 'unknown', status: null, checkedat: null },
    } as LinkDetails
    const values = valuesFromDetails(details, () => undefined)
    expect(values.utm).toEqual({ source: 'mail', medium: '', campaign: 'june', term: '', content: '' })
    expect(toUpdateBody(values).utm).toEqual({ source: 'mail', campaign: 'june' })
    expect(toUpdateBody({ ...values, utm: { ...values.utm, source: ' ', campaign: '' } }).utm).toEqual({})
    expect(Object.keys(validateLinkForm({ ...values, utm: { ...values.utm, term: 'a\tb', content: 'x'.repeat(201) } }))).toEqual(['utm.term', 'utm.content'])
  })

  it('reads, checks and sends a click limit and the expired link\'s address, removing them with "" when emptied', () => {
    const details = {
      id: 4, alias: 'cap', shorturl: 'https://lw.test/cap', longurl: 'https://example.com', title: null, description: null, clicks: 0, uniqueclicks: 0,
      date: '2026-01-01 00:00:00', domain: null, campaign: null, pixels: [], type: 'direct', expiry: null, password: false,
      targeting: { geo: [], device: [], language: [] }, utm: null, clicklimit: 500, expiredurl: 'https://example.com/sold-out', ios: 'https://apps.apple.com/app/id1', android: null, variants: [{ url: 'https://example.com/a', weight: 2, clicks: 5 }, { url: 'https://example.com/b', weight: 1, clicks: 3 }],
      tags: [],
      brokenurl: null, trackconversions: false, passthrough: null, card: null, health: { state: 'unknown', status: null, checkedat: null },
    } as LinkDetails
    const values = valuesFromDetails(details, () => undefined)
    expect(values).toMatchObject({ clicklimit: '500', expiredurl: 'https://example.com/sold-out' })
    expect(toUpdateBody(values)).toMatchObject({ clicklimit: 500, expiredurl: 'https://example.com/sold-out' })
    expect(toUpdateBody({ ...values, clicklimit: '', expiredurl: ' ' })).toMatchObject({ clicklimit: '', expiredurl: '' })
    // brokenurl: sent when filled in, cleared with "" on update.
    expect(toUpdateBody({ ...values, brokenurl: ' https://example.com/home ' })).toMatchObject({ brokenurl: 'https://example.com/home' })
    expect(toUpdateBody({ ...values, brokenurl: ' ' })).toMatchObject({ brokenurl: '' })
    for (const clicklimit of ['0', '1000000001', '2.5', '-3', 'ten']) expect(validateLinkForm({ ...values, clicklimit }).clicklimit).toBeDefined()
    expect(validateLinkForm({ ...values, clicklimit: '1000000000' }).clicklimit).toBeUndefined()
    expect(validateLinkForm({ ...values, expiredurl: 'javascript:alert(1)' }).expiredurl).toBeDefined()
  })

  it('reads, checks and sends split-test variants, ending the test with [] when none is left', () => {
    const values = { ...emptyLinkForm, url: 'https://example.com', variants: [{ url: 'https://example.com/a', weight: '2' }, { url: ' https://example.com/b ', weight: '1' }] }
    expect(toUpdateBody(values).variants).toEqual([{ url: 'https://example.com/a', weight: 2 }, { url: 'https://example.com/b', weight: 1 }])
    expect(toUpdateBody({ ...values, variants: [] }).variants).toEqual([])
    expect(Object.keys(validateLinkForm({ ...values, variants: [values.variants[0]!] }))).toEqual(['variants'])
    expect(Object.keys(validateLinkForm({ ...values, variants: [{ url: 'ftp://x', weight: '0' }, values.variants[1]!] }))).toEqual(['variants.0.url', 'variants.0.weight'])
  })

  it('reads, checks and sends app links, removing one with "" when emptied', () => {
    const values = { ...emptyLinkForm, url: 'https://example.com', ios: ' https://apps.apple.com/app/id1 ', android: '' }
    expect(toUpdateBody(values)).toMatchObject({ ios: 'https://apps.apple.com/app/id1', android: '' })
    expect(validateLinkForm({ ...values, android: 'market://details?id=x' }).android).toBeDefined()
    expect(validateLinkForm(values).ios).toBeUndefined()
  })

  it('keeps a domain the option list does not show, by its address', () => {
    const details = {
      id: 2, alias: 'far', shorturl: 'https://far.example/far', longurl: 'https://example.com', title: null, description: null, clicks: 0, uniqueclicks: 0,
      date: '2026-01-01 00:00:00', domain: 'https://far.example', campaign: null, pixels: [], type: 'direct', expiry: null, password: false,
      targeting: { geo: [], device: [], language: [] }, utm: null, clicklimit: null, expiredurl: null, ios: null, android: null, variants: null,
      tags: [],
      brokenurl: null, trackconversions: false, passthrough: null, card: null, health: { state: 'unknown', status: null, checkedat: null },
    } as LinkDetails
    const values = valuesFromDetails(details, () => undefined)
    expect(values.domain).toBe('https://far.example')
    expect(toUpdateBody(values).domain).toBe('https://far.example')
  })
})
