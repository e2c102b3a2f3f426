// The dashboard's overlay endpoints: the single read (the editor's fields), the contacts a contact
// overlay collected, and the preview rendered by the visitors' page code.
import { describe, expect, it } from 'vitest'
import { fieldError } from '../../helpers/envelope.js'
import { createOverlay, insertLinkRow } from '../../helpers/factories.js'
import { useTestApp } from '../../helpers/test-app.js'

const XSS = '<script>alert(1)</script>'
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('CTA overlay single read, contacts and preview', () => {
  const { context, owner, api, otherApi } = useTestApp()

  async function receiveContacts(overlayId: number, count: number) {
    const link = await insertLinkRow(context.database.db, owner.id, { type: 'overlay', overlay_id: overlayId })
    for (let index = 1; index <= count; index++) {
      await context.services.overlays.saveContact({ accountId: owner.id, overlayId, linkId: link.id, name: `Visitor ${index}`, email: `visitor${index}@example.com`, message: `Message ${index}` })
    }
    return link.id
  }

  it('GET /api/overlay/{id} answers the overlay with the fields of its type', async () => {
    const id = await createOverlay(context, owner, { type: 'message', name: 'Spring promo', message: 'Get 20% off', label: 'Shop', link: 'https://shop.example/', color: '#FFFFFF', bg: '#1e90ff' })
    const response = await api('GET', `/api/overlay/${id}`)
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({
      error: 0,
      data: { id, type: 'message', name: 'Spring promo', date: expect.stringMatching(DATE_TIME), message: 'Get 20% off', label: 'Shop', link: 'https://shop.example/', color: '#ffffff', bg: '#1e90ff' },
    })
    const contact = await createOverlay(context, owner, { type: 'contact', name: 'Talk to us', email: 'sales@example.com', title: 'Questions?' })
    expect((await api('GET', `/api/overlay/${contact}`)).data.data).toEqual({ id: contact, type: 'contact', name: 'Talk to us', date: expect.any(String), email: 'sales@example.com', title: 'Questions?' })
  })

  it('lists a contact overlay\'s contacts newest first, paged', async () => {
    const id = await createOverlay(context, owner, { type: 'contact', name: 'Leads', email: 'sales@example.com' })
    const linkId = await receiveContacts(id, 3)
    const first = await api('GET', `/api/overlay/${id}/contacts?limit=2`)
    expect(first.statusCode).toBe(200)
    expect(first.data).toEqual({
      error: '0',
      data: {
        result: 3, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 2,
        contacts: [
          { id: expect.any(Number), name: 'Visitor 3', email: 'visitor3@example.com', message: 'Message 3', linkid: linkId, date: expect.stringMatching(DATE_TIME) },
          { id: expect.any(Number), name: 'Visitor 2', email: 'visitor2@example.com', message: 'Message 2', linkid: linkId, date: expect.stringMatching(DATE_TIME) },
        ],
      },
    })
    const second = await api('GET', `/api/overlay/${id}/contacts?limit=2&page=2`)
    expect(second.data.data.contacts.map((contact: { name: string }) => contact.name)).toEqual(['Visitor 1'])
  })

  it('keeps each overlay\'s contacts apart, and an overlay without any has an empty list', async () => {
    const quiet = await createOverlay(context, owner, { type: 'contact', name: 'Quiet', email: 'sales@example.com' })
    const busy = await createOverlay(context, owner, { type: 'contact', name: 'Busy', email: 'sales@example.com' })
    await receiveContacts(busy, 1)
    expect((await api('GET', `/api/overlay/${quiet}/contacts`)).data.data).toMatchObject({ result: 0, maxpage: 0, nextpage: null, contacts: [] })
  })

  it('answers 404 for another account\'s or an unknown overlay, 400 for a bad id or page', async () => {
    const id = await createOverlay(context, owner, { type: 'contact', name: 'Private leads', email: 'sales@example.com' })
    await receiveContacts(id, 1)
    for (const url of [`/api/overlay/${id}`, `/api/overlay/${id}/contacts`]) {
      const response = await otherApi('GET', url)
      expect(response.statusCode).toBe(404)
      expect(response.data).toEqual({ error: 1, message: 'CTA overlay not found. Please try again.', code: 'not_found' })
    }
    expect((await api('GET', '/api/overlay/999999/contacts')).statusCode).toBe(404)
    expect((await api('GET', '/api/overlay/x/contacts')).statusCode).toBe(400)
    const badPage = await api('GET', `/api/overlay/${id}/contacts?page=0`)
    expect(badPage.statusCode).toBe(400)
    expect(badPage.data.message).toContain('"page"')
  })

  it('POST /api/overlay/preview answers the visitor\'s frame page for unsaved fields, escaped, with nothing framed', async () => {
    const before = await context.database.db.selectFrom('overlays').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    const response = await api('POST', '/api/overlay/preview', { type: 'message', name: 'Draft', message: `Sale ${XSS}`, label: 'Shop now', link: 'https://shop.example/', bg: '#112233' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.body).toMatch(/^<!doctype html>/)
    expect(response.body).toContain('<details class="overlay" open style="background:#112233">')
    expect(response.body).toContain('Sale &lt;script&gt;alert(1)&lt;/script&gt;')
    expect(response.body).toContain('href="https://shop.example/"')
    expect(response.body).not.toContain(XSS)
    // The dashboard's frame may frame nothing: a placeholder stands in for the destination.
    expect(response.body).not.toContain('<iframe')
    expect(response.body).toContain('frame-placeholder')
    const after = await context.database.db.selectFrom('overlays').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it('previews a contact overlay with its form', async () => {
    const response = await api('POST', '/api/overlay/preview', { type: 'contact', name: 'Draft', email: 'sales@example.com', title: 'Talk to us', label: 'Send it' })
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('<strong>Talk to us</strong>')
    expect(response.body).toContain('>Send it</button>')
    expect(response.body).not.toContain('sales@example.com')
  })

  it.each([
    [{ type: 'message', name: 'Draft' }, 'The field "message" is required for a message overlay.'],
    [{ type: 'contact', name: 'Draft', email: 'nope' }, 'The field "email" must be a valid e-mail address.'],
    [{ type: 'poll', name: 'Draft', message: 'hi' }, 'The field "type" must be one of message, contact.'],
    [{ type: 'message', name: ' ', message: 'hi' }, 'The field "name" must be 2 to 100 characters.'],
  ])('preview answers 400 with the create rules (%j)', async (body, message) => {
    const response = await api('POST', '/api/overlay/preview', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
  })

  it('preview needs a key', async () => {
    const response = await context.app.inject({ method: 'POST', url: '/api/overlay/preview', payload: { type: 'message', name: 'Draft', message: 'hi' } })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ error: 1 })
  })
})
