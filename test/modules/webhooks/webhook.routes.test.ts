// The webhook endpoints: add (the secret answered once), list, read, update, switch off and on,
// delete; bad input in the envelope with its field; another account's webhooks are not found.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'

describe('webhook endpoints', () => {
  const { context, api, otherApi } = useTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: '0' } })

  async function addWebhook(body: Record<string, unknown> = {}) {
    const created = await api('POST', '/api/webhook/add', { url: 'https://hooks.example.com/linkwell', events: ['link.created'], ...body })
    expect(created.statusCode).toBe(201)
    return created.data as { error: 0; id: number; secret: string }
  }

  it('adds a webhook and answers its secret once; reads and lists it without the secret', async () => {
    const created = await addWebhook({ events: ['link.created', 'link.clicked', 'contact.submitted'], description: 'CRM' })
    expect(created).toEqual({ error: 0, id: expect.any(Number), secret: expect.stringMatching(/^whsec_/) })
    const read = await api('GET', `/api/webhook/${created.id}`)
    expect(read.statusCode).toBe(200)
    expect(read.data).toEqual({
      error: 0,
      data: {
        id: created.id,
        url: 'https://hooks.example.com/linkwell',
        description: 'CRM',
        events: ['link.created', 'link.clicked', 'contact.submitted'],
        enabled: true,
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    })
    expect(read.body).not.toContain(created.secret)
    const list = await api('GET', '/api/webhooks')
    expect(list.data.data.webhooks.map((hook: { id: number }) => hook.id)).toContain(created.id)
    expect(list.body).not.toContain('whsec_')
    // The secret is kept to sign with.
    const stored = await context.database.db.selectFrom('webhooks').select('secret').where('id', '=', created.id).executeTakeFirstOrThrow()
    expect(stored.secret).toBe(created.secret)
  })

  it('updates, switches off (with why) and back on, and deletes', async () => {
    const { id } = await addWebhook()
    const updated = await api('PUT', `/api/webhook/${id}/update`, { url: 'https://hooks.example.com/v2', events: ['qr.scanned'], description: 'v2' })
    expect(updated.statusCode).toBe(200)
    expect(updated.data).toMatchObject({ error: 0, message: 'Webhook has been updated successfully.', id, url: 'https://hooks.example.com/v2', events: ['qr.scanned'], description: 'v2', enabled: true })
    const off = await api('PUT', `/api/webhook/${id}/update`, { enabled: false })
    expect(off.data).toMatchObject({ enabled: false, disabledReason: 'Switched off by a person.', disabledAt: expect.any(String) })
    const test = await api('POST', `/api/webhook/${id}/test`)
    expect(test.statusCode).toBe(400)
    expect(test.data.code).toBe('webhook_disabled')
    const on = await api('PUT', `/api/webhook/${id}/update`, { enabled: true })
    expect(on.data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null })
    const deleted = await api('DELETE', `/api/webhook/${id}/delete`)
    expect(deleted.data).toEqual({ error: 0, message: 'Webhook has been deleted successfully.' })
    expect((await api('GET', `/api/webhook/${id}`)).statusCode).toBe(404)
  })

  it.each([
    [{ events: ['link.created'] }, 'url'],
    [{ url: 'ftp://example.com/x', events: ['link.created'] }, 'url'],
    [{ url: 'https://example.com/x', events: [] }, 'events'],
    [{ url: 'https://example.com/x', events: ['link.exploded'] }, 'events.0'],
    [{ url: 'https://example.com/x', events: ['link.created', 'link.created'] }, 'events'],
    [{ url: 'https://example.com/x' }, 'events'],
    [{ url: 'https://example.com/x', events: ['link.created'], description: 'd'.repeat(501) }, 'description'],
    // A literal private or loopback address is refused at once (names are checked at delivery).
    [{ url: 'http://127.0.0.1:8080/hook', events: ['link.created'] }, 'url'],
    [{ url: 'http://[fe80::1]/hook', events: ['link.created'] }, 'url'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const refused = await api('POST', '/api/webhook/add', body)
    expect(refused.statusCode).toBe(400)
    expect(refused.data).toMatchObject({ error: 1, code: 'validation_failed', field })
  })

  it('keeps each account to its own webhooks and deliveries', async () => {
    const { id } = await addWebhook()
    for (const [method, url, body] of [
      ['GET', `/api/webhook/${id}`],
      ['PUT', `/api/webhook/${id}/update`, { description: 'x' }],
      ['DELETE', `/api/webhook/${id}/delete`],
      ['GET', `/api/webhook/${id}/deliveries`],
      ['POST', `/api/webhook/${id}/test`],
    ] as const) {
      const answer = await otherApi(method, url, body)
      expect(answer.statusCode, `${method} ${url}`).toBe(404)
      expect(answer.data.code).toBe('not_found')
    }
    const test = await api('POST', `/api/webhook/${id}/test`)
    expect(test.statusCode).toBe(200)
    expect((await otherApi('POST', `/api/delivery/${test.data.id}/retry`)).statusCode).toBe(404)
    expect((await api('POST', '/api/delivery/999999/retry')).statusCode).toBe(404)
  })

  it('describes every endpoint in the OpenAPI document', async () => {
    const document = (await context.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    for (const path of ['/api/webhooks', '/api/webhook/add', '/api/webhook/{id}', '/api/webhook/{id}/update', '/api/webhook/{id}/delete', '/api/webhook/{id}/deliveries', '/api/webhook/{id}/test', '/api/delivery/{id}/retry']) {
      expect(document.paths[path], path).toBeDefined()
    }
    expect(document.paths['/api/webhook/add'].post.responses['400'].content['application/json'].schema.$ref).toMatch(/ErrorEnvelope/)
  })
})
