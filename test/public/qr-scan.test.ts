// Scans of a link QR code's tracking address: each GET by a person is one click of the QR code,
// counted in `scans` and the statistics; HEAD requests and bots are redirected but not counted.
import { describe, expect, it } from 'vitest'
import { PUBLIC_URL, useTestApp } from '../helpers/test-app.js'
import { decodeQrImage } from '../modules/qr-codes/qr-test-support.js'
import { expectPage } from '../helpers/pages.js'

const BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const DESTINATION = 'https://example.com/menu?table=4'

describe('QR tracking address scans', () => {
  const { context, owner, api } = useTestApp()

  /** Creates a link QR code through the API; answers its id and the address its image encodes. */
  async function createLinkQr(): Promise<{ id: number; tracking: string }> {
    const created = await api('POST', '/api/qr/add', { type: 'link', data: DESTINATION, name: 'Menu' })
    expect(created.statusCode).toBe(201)
    const image = await context.app.inject({ method: 'GET', url: new URL(created.data.link as string).pathname })
    expect(image.statusCode).toBe(200)
    const tracking = await decodeQrImage(image.rawPayload)
    expect(tracking).toMatch(new RegExp(`^${PUBLIC_URL}/qr/[A-Za-z0-9_-]+/scan$`))
    return { id: created.data.id, tracking: tracking! }
  }

  /** Follows the decoded address the way a phone would, through the app. */
  function scan(tracking: string, method: 'GET' | 'HEAD' = 'GET', userAgent = BROWSER) {
    const url = new URL(tracking)
    expect(url.origin).toBe(PUBLIC_URL)
    return context.app.inject({ method, url: url.pathname, headers: { 'user-agent': userAgent, 'accept-language': 'fr-FR,fr;q=0.8' } })
  }

  async function scansOf(id: number) {
    await context.clicks.flush()
    const details = await api('GET', `/api/qr/${id}`)
    expect(details.statusCode).toBe(200)
    const list = await api('GET', '/api/qr?limit=50')
    const entry = (list.data.data.qrs as Array<{ id: number; scans: number }>).find((qr) => qr.id === id)
    const rows = await context.database.db.selectFrom('clicks').selectAll().where('item_type', '=', 'qr').where('item_id', '=', id).execute()
    return { detailScans: details.data.details.scans, statisticsClicks: details.data.data.clicks, listScans: entry?.scans, rows }
  }

  it('counts a scan: the decoded address redirects to the destination and adds one scan and one click row', async () => {
    const { id, tracking } = await createLinkQr()
    expect(await scansOf(id)).toMatchObject({ detailScans: 0, statisticsClicks: 0, listScans: 0, rows: [] })

    const response = await scan(tracking)
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe(DESTINATION)
    expect(response.headers['cache-control']).toBe('private, max-age=0')

    const after = await scansOf(id)
    expect(after).toMatchObject({ detailScans: 1, statisticsClicks: 1, listScans: 1 })
    expect(after.rows).toHaveLength(1)
    expect(after.rows[0]).toMatchObject({ account_id: owner.id, item_type: 'qr', item_id: id, language: 'fr' })

    await scan(tracking)
    await scan(tracking)
    expect(await scansOf(id)).toMatchObject({ detailScans: 3, statisticsClicks: 3, listScans: 3 })
  })

  it('redirects HEAD requests without counting them', async () => {
    const { id, tracking } = await createLinkQr()
    const head = await scan(tracking, 'HEAD')
    expect(head.statusCode).toBe(302)
    expect(head.headers.location).toBe(DESTINATION)
    expect(await scansOf(id)).toMatchObject({ detailScans: 0, statisticsClicks: 0, listScans: 0, rows: [] })
    await scan(tracking)
    await scan(tracking, 'HEAD')
    expect(await scansOf(id)).toMatchObject({ detailScans: 1, statisticsClicks: 1, listScans: 1 })
  })

  it('redirects bots and link-preview fetchers without counting them', async () => {
    const { id, tracking } = await createLinkQr()
    for (const userAgent of ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'facebookexternalhit/1.1', 'curl/8.5.0']) {
      const response = await scan(tracking, 'GET', userAgent)
      expect(response.statusCode).toBe(302)
      expect(response.headers.location).toBe(DESTINATION)
    }
    expect(await scansOf(id)).toMatchObject({ detailScans: 0, statisticsClicks: 0, listScans: 0, rows: [] })
  })

  it('counts each code on its own', async () => {
    const first = await createLinkQr()
    const second = await createLinkQr()
    await scan(second.tracking)
    await scan(second.tracking)
    expect(await scansOf(first.id)).toMatchObject({ detailScans: 0, listScans: 0 })
    expect(await scansOf(second.id)).toMatchObject({ detailScans: 2, listScans: 2 })
  })

  it('answers the 404 page for the tracking address of an unknown alias or a code that is not a link', async () => {
    const text = await api('POST', '/api/qr/add', { type: 'text', data: 'Just text' })
    const alias = (text.data.link as string).split('/').pop()!
    for (const path of [`/qr/${alias}/scan`, '/qr/unknown-alias/scan', '/qr/bad%20alias/scan']) {
      const response = await context.app.inject({ method: 'GET', url: path, headers: { 'user-agent': BROWSER } })
      expectPage(response, 404, 'Not found')
    }
    await context.clicks.flush()
    const rows = await context.database.db.selectFrom('clicks').select('id').where('item_type', '=', 'qr').where('item_id', '=', text.data.id).execute()
    expect(rows).toHaveLength(0)
  })
})
