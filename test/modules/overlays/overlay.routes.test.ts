import { describe, expect, it } from 'vitest'
import { fieldError } from '../../helpers/envelope.js'
import { apiClient, createAccount, type ApiClient, useTestApp } from '../../helpers/test-app.js'

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
const MESSAGE = { type: 'message', name: 'Spring promo', message: 'Get 20% off this week' }
const CONTACT = { type: 'contact', name: 'Contact us', email: 'sales@example.com' }

describe('CTA overlay endpoints', () => {

  async function storedOverlay(id: number) {
    const row = await context.database.db.selectFrom('overlays').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    return { type: row.type, name: row.name, config: JSON.parse(row.config) as Record<string, unknown> }
  }

  async function listAll(client: ApiClient) {
    return (await client('GET', '/api/overlay?limit=100')).data.data.cta as Array<{ id: number; type: string; name: string; date: string }>
  }

  const { context, api } = useTestApp()

  it('creates a message overlay, answers 201 {error:0, id} and stores only the message fields', async () => {
    const response = await api('POST', '/api/overlay/add', {
      ...MESSAGE,
      label: 'Shop now',
      link: 'https://shop.example/spring',
      color: '#FFFFFF',
      bg: '#1E90FF',
      email: 'ignored@example.com',
      title: 'not a message field',
      evil: '<script>',
    })
    expect(response.statusCode).toBe(201)
    expect(response.data).toEqual({ error: 0, id: expect.any(Number) })
    expect(await storedOverlay(response.data.id)).toEqual({
      type: 'message',
      name: 'Spring promo',
      config: { message: 'Get 20% off this week', label: 'Shop now', link: 'https://shop.example/spring', color: '#ffffff', bg: '#1e90ff' },
    })
    const listed = (await listAll(api)).find((overlay) => overlay.id === response.data.id)
    expect(listed).toEqual({ id: response.data.id, type: 'message', name: 'Spring promo', date: expect.stringMatching(DATE_TIME) })
  })

  it('creates a contact overlay with only the contact fields', async () => {
    const response = await api('POST', '/api/overlay/add', { ...CONTACT, name: ' Contact us ', title: 'Talk to us', description: 'We answer within a day.', label: 'Send', message: 'not a contact field', link: 'https://x.example' })
    expect(response.statusCode).toBe(201)
    expect(await storedOverlay(response.data.id)).toEqual({
      type: 'contact',
      name: 'Contact us',
      config: { email: 'sales@example.com', title: 'Talk to us', description: 'We answer within a day.', label: 'Send' },
    })
  })

  it('leaves out optional fields sent empty or blank', async () => {
    const response = await api('POST', '/api/overlay/add', { ...MESSAGE, label: '  ', link: '', color: '', bg: '' })
    expect(response.statusCode).toBe(201)
    expect((await storedOverlay(response.data.id)).config).toEqual({ message: 'Get 20% off this week' })
  })

  it.each([
    [{ type: 'message', name: 'No message' }, 'The field "message" is required for a message overlay.'],
    [{ type: 'message', name: 'Blank message', message: '   ' }, 'The field "message" is required for a message overlay.'],
    [{ type: 'contact', name: 'No email', title: 'Hi' }, 'The field "email" is required for a contact overlay.'],
    [{ name: 'No type', message: 'hi' }, 'The field "type" is required.'],
    [{ ...MESSAGE, type: 'poll' }, 'The field "type" must be one of message, contact.'],
    [{ ...MESSAGE, type: ['message'] }, 'The field "type" must be one of message, contact.'],
    [{ type: 'message', message: 'hi' }, 'The field "name" is required.'],
    [{ ...MESSAGE, name: 'x' }, 'The field "name" must be 2 to 100 characters.'],
    [{ ...MESSAGE, name: 'x'.repeat(101) }, 'The field "name" must be 2 to 100 characters.'],
    [{ ...MESSAGE, name: 12 }, 'The field "name" must be 2 to 100 characters.'],
    [{ ...MESSAGE, name: ' x ' }, 'The field "name" must be 2 to 100 characters.'],
    // "" is "not given" on a create (ADR 013): the type's own field is then missing.
    [{ ...MESSAGE, message: '' }, 'The field "message" is required for a message overlay.'],
    [{ ...MESSAGE, message: 'm'.repeat(501) }, 'The field "message" must be 1 to 500 characters.'],
    [{ ...MESSAGE, message: { text: 'hi' } }, 'The field "message" must be 1 to 500 characters.'],
    [{ ...MESSAGE, label: 'l'.repeat(51) }, 'The field "label" must be text of at most 50 characters.'],
    [{ ...MESSAGE, link: 'javascript:alert(1)' }, 'The field "link" must be an http or https URL.'],
    [{ ...MESSAGE, color: 'red' }, 'The field "color" must be a HEX color like #1e90ff or #fff.'],
    [{ ...MESSAGE, bg: '#12345' }, 'The field "bg" must be a HEX color like #1e90ff or #fff.'],
    [{ ...CONTACT, title: 't'.repeat(101) }, 'The field "title" must be text of at most 100 characters.'],
    [{ ...CONTACT, description: 'd'.repeat(501) }, 'The field "description" must be text of at most 500 characters.'],
    [{ ...CONTACT, email: 'not-an-email' }, 'The field "email" must be a valid e-mail address.'],
    [{ ...CONTACT, email: '' }, 'The field "email" is required for a contact overlay.'],
    [{ ...CONTACT, label: 5 }, 'The field "label" must be text of at most 50 characters.'],
  ])('refuses %j with a 400: %s', async (body, message) => {
    const response = await api('POST', '/api/overlay/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
  })

  it('updates the name and the type’s fields, clears optional ones with an empty string, and keeps the type', async () => {
    const created = await api('POST', '/api/overlay/add', { ...MESSAGE, label: 'Shop now', link: 'https://shop.example/', color: '#000' })
    const id = created.data.id
    const updated = await api('PUT', `/api/overlay/${id}/update`, { name: 'Summer promo', message: 'Summer is here', link: '', bg: '#FAFAFA', type: 'contact', email: 'x@example.com' })
    expect(updated.statusCode).toBe(200)
    expect(updated.data).toEqual({ error: 0, message: 'CTA overlay has been updated successfully.' })
    expect(await storedOverlay(id)).toEqual({ type: 'message', name: 'Summer promo', config: { message: 'Summer is here', label: 'Shop now', color: '#000', bg: '#fafafa' } })
    expect((await api('PUT', `/api/overlay/${id}/update`, {})).statusCode).toBe(200)
    expect(await storedOverlay(id)).toMatchObject({ name: 'Summer promo', config: { message: 'Summer is here', label: 'Shop now', color: '#000', bg: '#fafafa' } })
  })

  it('updates a contact overlay and will not let its e-mail be removed', async () => {
    const created = await api('POST', '/api/overlay/add', { ...CONTACT, title: 'Hello' })
    const id = created.data.id
    expect((await api('PUT', `/api/overlay/${id}/update`, { email: 'support@example.com', title: '', description: 'Ask away' })).statusCode).toBe(200)
    expect((await storedOverlay(id)).config).toEqual({ email: 'support@example.com', description: 'Ask away' })
    const removed = await api('PUT', `/api/overlay/${id}/update`, { email: '' })
    expect(removed.statusCode).toBe(400)
    expect(removed.data.message).toBe('The field "email" must be a valid e-mail address.')
  })

  it.each([
    [{ name: 'x' }, 'The field "name" must be 2 to 100 characters.'],
    [{ name: '' }, 'The field "name" must be 2 to 100 characters.'],
    [{ message: '' }, 'The field "message" must be 1 to 500 characters.'],
    [{ message: '  ' }, 'The field "message" must be 1 to 500 characters.'],
    [{ message: ' \n ' }, 'The field "message" must be 1 to 500 characters.'],
    [{ link: 'ftp://files.example' }, 'The field "link" must be an http or https URL.'],
    [{ color: '#ggg' }, 'The field "color" must be a HEX color like #1e90ff or #fff.'],
    [{ label: 'l'.repeat(51) }, 'The field "label" must be text of at most 50 characters.'],
  ])('refuses the update %j with a 400: %s', async (body, message) => {
    const created = await api('POST', '/api/overlay/add', MESSAGE)
    const response = await api('PUT', `/api/overlay/${created.data.id}/update`, body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
    expect(await storedOverlay(created.data.id)).toEqual({ type: 'message', name: MESSAGE.name, config: { message: MESSAGE.message } })
  })

  // Deleting, another account's overlay, path ids, the list's envelope and paging, the plan limit:
  // test/http/owned-resources.test.ts.
  it('lists both types together, newest first, with only the shared fields', async () => {
    const client = apiClient(context.app, (await createAccount(context)).apiKey)
    await client('POST', '/api/overlay/add', { ...MESSAGE, name: 'one' })
    await client('POST', '/api/overlay/add', { ...CONTACT, name: 'two' })
    const listed = (await client('GET', '/api/overlay')).data.data.cta
    expect(listed.map((overlay: { name: string; type: string }) => [overlay.name, overlay.type])).toEqual([['two', 'contact'], ['one', 'message']])
    for (const overlay of listed) expect(Object.keys(overlay).sort()).toEqual(['date', 'id', 'name', 'type'])
  })
})
