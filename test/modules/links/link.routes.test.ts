import { describe, expect, it } from 'vitest'
import { createCampaign, createDomain, createOverlay, createPixel, createSplashPage, nextYear, setLinkCounters } from '../../helpers/factories.js'
import { verifyPassword } from '../../../src/core/secrets.js'
import { apiClient, createAccount, PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { EMPTY_STATISTICS } from '../../helpers/statistics.js'

describe('short link endpoints', () => {

  const { context, owner, api } = useTestApp()

  it('creates a link with a generated alias and reads it back with every field', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/landing?utm=1' })
    expect(created.statusCode).toBe(201)
    expect(created.data).toEqual({ error: 0, id: expect.any(Number), shorturl: expect.stringMatching(/^https:\/\/lw\.test\/[2-9a-hjkmnp-z]{6}$/) })
    const alias = created.data.shorturl.slice(PUBLIC_URL.length + 1)

    const read = await api('GET', `/api/url/${created.data.id}`)
    expect(read.statusCode).toBe(200)
    expect(read.data).toEqual({
      error: 0,
      id: created.data.id,
      details: {
        id: created.data.id,
        alias,
        shorturl: created.data.shorturl,
        longurl: 'https://example.com/landing?utm=1',
        title: null,
        description: null,
        clicks: 0,
        uniqueclicks: 0,
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        domain: null,
        campaign: null,
        pixels: [],
        type: 'direct',
        expiry: null,
        password: false,
        health: { state: 'unknown', status: null, checkedat: null },
        card: null,
        targeting: { geo: [], device: [], language: [] },
        utm: null,
        clicklimit: null,
        expiredurl: null,
        ios: null,
        android: null,
        variants: null,
        tags: [],
        brokenurl: null,
        trackconversions: false,
        passthrough: null,
      },
      data: EMPTY_STATISTICS,
    })
  })

  it('stores every optional field and shows it normalised', async () => {
    const domain = await createDomain(context, owner)
    const [pixelA, pixelB] = [await createPixel(context, owner), await createPixel(context, owner)]
    const campaign = await createCampaign(context, owner)
    const overlay = await createOverlay(context, owner)
    const expiry = nextYear()
    const created = await api('POST', '/api/url/add', {
      url: 'https://shop.example/item',
      custom: 'Full_Link-1',
      domain: domain.origin,
      password: 's3cret pass',
      expiry,
      type: `overlay-${overlay}`,
      metatitle: '  Big sale  ',
      metadescription: 'Everything must go',
      pixels: [pixelB, pixelA, pixelB],
      campaign,
      geotarget: [{ location: 'us', link: 'https://shop.example/us' }],
      devicetarget: [{ device: 'iphone', link: 'https://apps.example/ios' }],
      languagetarget: [{ language: 'FR', link: 'https://shop.example/fr' }],
    })
    expect(created.statusCode).toBe(201)
    expect(created.data).toEqual({ error: 0, id: expect.any(Number), shorturl: `${domain.origin}/Full_Link-1` })

    const read = await api('GET', `/api/url/${created.data.id}`)
    expect(read.data.details).toEqual({
      id: created.data.id,
      alias: 'Full_Link-1',
      shorturl: `${domain.origin}/Full_Link-1`,
      longurl: 'https://shop.example/item',
      title: 'Big sale',
      description: 'Everything must go',
      clicks: 0,
      uniqueclicks: 0,
      utm: null,
      clicklimit: null,
      expiredurl: null,
      ios: null,
      android: null,
      variants: null,
      tags: [],
      brokenurl: null,
      trackconversions: false,
      passthrough: null,
      date: expect.any(String),
      domain: domain.origin,
      campaign,
      pixels: [pixelA, pixelB].sort((a, b) => a - b),
      type: `overlay-${overlay}`,
      expiry,
      password: true,
      health: { state: 'unknown', status: null, checkedat: null },
      card: null,
      targeting: {
        geo: [{ location: 'US', link: 'https://shop.example/us' }],
        device: [{ device: 'iphone', link: 'https://apps.example/ios' }],
        language: [{ language: 'fr', link: 'https://shop.example/fr' }],
      },
    })
    const row = await context.database.db.selectFrom('links').select(['password_hash', 'host', 'domain_id']).where('id', '=', created.data.id).executeTakeFirstOrThrow()
    expect(row.password_hash).not.toContain('s3cret')
    expect(await verifyPassword('s3cret pass', row.password_hash!)).toBe(true)
    expect(row).toMatchObject({ host: domain.hostname, domain_id: domain.id })
  })

  it('finds a branded domain by id as well as by address (any scheme or letter case)', async () => {
    const domain = await createDomain(context, owner)
    const byId = await api('POST', '/api/url/add', { url: 'https://a.example', domain: domain.id })
    expect(byId.data.shorturl.startsWith(`${domain.origin}/`)).toBe(true)
    const byText = await api('POST', '/api/url/add', { url: 'https://a.example', domain: String(domain.id) })
    expect(byText.data.shorturl.startsWith(`${domain.origin}/`)).toBe(true)
    const byHttp = await api('POST', '/api/url/add', { url: 'https://a.example', domain: `HTTP://${domain.hostname.toUpperCase()}/` })
    expect(byHttp.data.shorturl.startsWith(`${domain.origin}/`)).toBe(true)
  })

  it('accepts every redirect type and shows it in the form it is sent', async () => {
    const splash = await createSplashPage(context, owner)
    const cases: [unknown, string][] = [
      ['direct', 'direct'],
      ['frame', 'frame'],
      ['splash', 'splash'],
      [splash, String(splash)],
      [String(splash), String(splash)],
    ]
    for (const [type, shown] of cases) {
      const created = await api('POST', '/api/url/add', { url: 'https://types.example', type })
      expect(created.statusCode).toBe(201)
      const read = await api('GET', `/api/url/${created.data.id}`)
      expect(read.data.details.type).toBe(shown)
    }
  })

  it('reports the click counters in the details and reads the statistics from the aggregates, at most 10 per list', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://counted.example' })
    await setLinkCounters(context, created.data.id, 12, 5)
    const item = { item_type: 'link', item_id: created.data.id }
    const browsers = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Opera', 'Vivaldi', 'Brave', 'Yandex', 'UCBrowser', 'Silk', 'Samsung Browser', 'Mobile Safari']
    await context.database.db.insertInto('click_totals').values([
      { ...item, dimension: 'clicks', value: '', clicks: 12 },
      { ...item, dimension: 'unique', value: '', clicks: 5 },
      // Twelve browsers, counts 1 to 12 (ties broken by name): the top ten are shown, highest first.
      ...browsers.map((browser, index) => ({ ...item, dimension: 'browser', value: browser, clicks: index + 1 })),
      { ...item, dimension: 'os', value: '', clicks: 12 },
      { ...item, dimension: 'referrer', value: '', clicks: 10 },
      { ...item, dimension: 'referrer', value: 'news.example', clicks: 2 },
    ]).execute()
    const read = await api('GET', `/api/url/${created.data.id}`)
    expect(read.data.details).toMatchObject({ clicks: 12, uniqueclicks: 5 })
    expect(read.data.data).toMatchObject({ clicks: 12, uniqueClicks: 5, topOs: { Unknown: '12' }, topReferrers: { Direct: '10', 'news.example': '2' } })
    expect(Object.entries(read.data.data.topBrowsers)).toEqual(browsers.slice(2).reverse().map((browser, index) => [browser, String(12 - index)]))
  })

  it('ignores unknown body fields', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://extras.example', evil: { a: 1 }, clicks: 99 })
    expect(created.statusCode).toBe(201)
    expect(Object.keys(created.data).sort()).toEqual(['error', 'id', 'shorturl'])
    const read = await api('GET', `/api/url/${created.data.id}`)
    expect(read.data.details.clicks).toBe(0)
  })

  it('updates every field and answers the message with the short URL', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://before.example', custom: 'before-update' })
    const id = created.data.id
    const domain = await createDomain(context, owner)
    const pixel = await createPixel(context, owner)
    const campaign = await createCampaign(context, owner)
    const splash = await createSplashPage(context, owner)
    const expiry = nextYear()
    const updated = await api('PUT', `/api/url/${id}/update`, {
      url: 'https://after.example/',
      custom: 'after-update',
      domain: domain.id,
      password: 'letmein',
      expiry,
      type: splash,
      metatitle: 'After',
      metadescription: 'Changed',
      pixels: [pixel],
      campaign,
      geotarget: [{ location: 'DE', link: 'https://after.example/de' }],
      devicetarget: [{ device: 'desktop', link: 'https://after.example/pc' }],
      languagetarget: [{ language: 'de', link: 'https://after.example/deutsch' }],
    })
    expect(updated.statusCode).toBe(200)
    expect(updated.data).toEqual({ error: 0, message: 'Link has been updated successfully.', id, shorturl: `${domain.origin}/after-update` })
    const read = await api('GET', `/api/url/${id}`)
    expect(read.data.details).toMatchObject({
      alias: 'after-update',
      shorturl: `${domain.origin}/after-update`,
      longurl: 'https://after.example/',
      title: 'After',
      description: 'Changed',
      domain: domain.origin,
      campaign,
      pixels: [pixel],
      type: String(splash),
      expiry,
      password: true,
      targeting: {
        geo: [{ location: 'DE', link: 'https://after.example/de' }],
        device: [{ device: 'desktop', link: 'https://after.example/pc' }],
        language: [{ language: 'de', link: 'https://after.example/deutsch' }],
      },
    })
  })

  it('clears fields with "" (or blank), 0 and []; fields not sent, or sent as null, stay as they were', async () => {
    const pixel = await createPixel(context, owner)
    const campaign = await createCampaign(context, owner)
    const domain = await createDomain(context, owner)
    const created = await api('POST', '/api/url/add', {
      url: 'https://clear.example',
      domain: domain.origin,
      password: 'pw',
      expiry: nextYear(),
      metatitle: 'T',
      metadescription: 'D',
      pixels: [pixel],
      campaign,
      type: 'frame',
      geotarget: [{ location: 'US', link: 'https://clear.example/us' }],
      devicetarget: [{ device: 'android', link: 'https://clear.example/android' }],
    })
    const id = created.data.id
    const alias = created.data.shorturl.split('/').pop()
    const cleared = await api('PUT', `/api/url/${id}/update`, { password: '', expiry: '', metatitle: '', metadescription: '   ', pixels: [], campaign: 0, domain: '', geotarget: [] })
    expect(cleared.statusCode).toBe(200)
    expect(cleared.data.shorturl).toBe(`${PUBLIC_URL}/${alias}`)
    const read = await api('GET', `/api/url/${id}`)
    expect(read.data.details).toMatchObject({
      alias,
      longurl: 'https://clear.example',
      password: false,
      expiry: null,
      title: null,
      description: null,
      pixels: [],
      campaign: null,
      domain: null,
      type: 'frame',
      targeting: { geo: [], device: [{ device: 'android', link: 'https://clear.example/android' }], language: [] },
    })
    const withCampaign = await api('PUT', `/api/url/${id}/update`, { campaign })
    expect(withCampaign.statusCode).toBe(200)
    // null is "not given" (ADR 013): what an SDK sends for the arguments it was not given changes nothing.
    await api('PUT', `/api/url/${id}/update`, { password: 'pw', expiry: nextYear() })
    const kept = await api('PUT', `/api/url/${id}/update`, { campaign: null, password: null, expiry: null, domain: null, metatitle: null, custom: null, url: null })
    expect(kept.statusCode).toBe(200)
    expect((await api('GET', `/api/url/${id}`)).data.details).toMatchObject({ alias, longurl: 'https://clear.example', campaign, password: true, expiry: expect.any(String), domain: null })
  })

  it('accepts an empty update and changes nothing', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://same.example', metatitle: 'Same' })
    const before = (await api('GET', `/api/url/${created.data.id}`)).data.details
    const updated = await api('PUT', `/api/url/${created.data.id}/update`, {})
    expect(updated.statusCode).toBe(200)
    expect(updated.data.shorturl).toBe(created.data.shorturl)
    expect((await api('GET', `/api/url/${created.data.id}`)).data.details).toEqual(before)
  })

  it('changes only the letter case of its own alias', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://case.example', custom: 'case-change' })
    const updated = await api('PUT', `/api/url/${created.data.id}/update`, { custom: 'CASE-change' })
    expect(updated.statusCode).toBe(200)
    expect(updated.data.shorturl).toBe(`${PUBLIC_URL}/CASE-change`)
  })

  it('deletes a link; reading, updating or deleting it again is a 404', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://doomed.example', pixels: [await createPixel(context, owner)] })
    const id = created.data.id
    const deleted = await api('DELETE', `/api/url/${id}/delete`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.data).toEqual({ error: 0, message: 'Link has been deleted successfully.' })
    for (const [method, url, body] of [['GET', `/api/url/${id}`], ['PUT', `/api/url/${id}/update`, {}], ['DELETE', `/api/url/${id}/delete`]] as const) {
      const again = await api(method, url, body)
      expect(again.statusCode).toBe(404)
      expect(again.data).toEqual({ error: 1, message: 'Link not found. Please try again.', code: 'not_found' })
    }
    const pixels = await context.database.db.selectFrom('link_pixels').select('pixel_id').where('link_id', '=', id).execute()
    expect(pixels).toEqual([])
  })

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses the path id %s with a 400 on every endpoint', async (id) => {
    for (const [method, url] of [['GET', `/api/url/${id}`], ['PUT', `/api/url/${id}/update`], ['DELETE', `/api/url/${id}/delete`]] as const) {
      const response = await api(method, url, method === 'PUT' ? {} : undefined)
      expect(response.statusCode).toBe(400)
      expect(response.data.code).toBe('validation_failed')
    }
  })

  it('enforces the plan limit on links', async () => {
    const db = context.database.db
    const plan = await db.insertInto('plans').values({ name: 'Two links', code: 'two', apirate: null, limits: '{"links":2}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
    const limited = apiClient(context.app, (await createAccount(context, { plan: plan.id })).apiKey)
    expect((await limited('POST', '/api/url/add', { url: 'https://one.example' })).statusCode).toBe(201)
    const second = await limited('POST', '/api/url/add', { url: 'https://two.example' })
    expect(second.statusCode).toBe(201)
    const third = await limited('POST', '/api/url/add', { url: 'https://three.example' })
    expect(third.statusCode).toBe(403)
    expect(third.data.code).toBe('plan_limit_reached')
    // Updating and deleting are not limited; a freed slot can be used again.
    expect((await limited('PUT', `/api/url/${second.data.id}/update`, { url: 'https://two.example/b' })).statusCode).toBe(200)
    expect((await limited('DELETE', `/api/url/${second.data.id}/delete`)).statusCode).toBe(200)
    expect((await limited('POST', '/api/url/add', { url: 'https://three.example' })).statusCode).toBe(201)
  })
})
