// Members' webhook events (issue 20): a member added, their role changed and their removal arrive
// signed (verified with the reference library), with the member as GET /api/members shows them;
// a webhook not subscribed to them receives nothing.
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMember } from '../../helpers/factories.js'
import { useTestApp } from '../../helpers/test-app.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js'
import { eventually } from '../../helpers/eventually.js'

describe('member events', () => {
  const { context, owner, api } = useTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE: '1' },
    webhookDelivery: { pollMs: 50, leaseMs: 5_000, backoff: () => 1_000 },
  })
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
  })
  afterAll(() => receiver.close())

  it('sends member.added, member.updated on a role change and member.removed, signed, with the member', async () => {
    const created = await api('POST', '/api/webhook/add', { url: `${receiver.url}/members`, events: ['member.added', 'member.updated', 'member.removed'] })
    expect(created.statusCode, created.body).toBe(201)
    const other = await api('POST', '/api/webhook/add', { url: `${receiver.url}/links-only`, events: ['link.created'] })
    expect(other.statusCode).toBe(201)
    const start = receiver.delivered.length

    const member = await createMember(context, owner, 'editor')
    const changed = await api('PUT', `/api/member/${member.personId}/update`, { role: 'viewer' })
    expect(changed.statusCode, changed.body).toBe(200)
    // The same role again changes nothing and reports nothing.
    expect((await api('PUT', `/api/member/${member.personId}/update`, { role: 'viewer' })).statusCode).toBe(200)
    expect((await api('DELETE', `/api/member/${member.personId}/delete`)).statusCode).toBe(200)

    // The delivery rows decide what is sent, written with each change: three for the members'
    // webhook, none for the other. Once none is pending nothing more is sent, so the receiver got
    // those three and no more.
    const rowsOf = (webhookId: number) => context.database.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('webhook_id', '=', webhookId).orderBy('id').execute()
    expect(await rowsOf(other.data.id)).toEqual([])
    const rows = await eventually(() => rowsOf(created.data.id), (list) => list.length > 0 && list.every((row) => row.status !== 'pending'))
    expect(rows).toEqual(Array(3).fill({ status: 'delivered', attempts: 1 }))
    expect(receiver.delivered.length).toBe(start + 3)
    const requests = receiver.delivered.slice(start)
    const events = requests.map((request) => new Webhook(created.data.secret).verify(request.body, request.headers) as { type: string; workspace: number; data: unknown })
    for (const request of requests) expect(request.path).toBe('/members')
    const byType = Object.fromEntries(events.map((event) => [event.type, event]))
    const shown = { id: member.personId, username: member.username, email: member.email }
    expect(byType['member.added']).toMatchObject({ workspace: owner.id, data: { ...shown, role: 'editor' } })
    expect(byType['member.updated']).toMatchObject({ workspace: owner.id, data: { ...shown, role: 'viewer' } })
    expect(byType['member.removed']).toMatchObject({ workspace: owner.id, data: { ...shown, role: 'viewer' } })
  })

  it('refuses an unknown member event name in the envelope', async () => {
    const refused = await api('POST', '/api/webhook/add', { url: `${receiver.url}/x`, events: ['member.joined'] })
    expect(refused.statusCode).toBe(400)
    expect(refused.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'events.0' })
  })
})
