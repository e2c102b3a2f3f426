import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { createBioPage, createChannel, createLink, createQrCode } from '../../helpers/factories.js'

describe('one channel, removing its items, starred first', () => {
  const { context, owner, other, api, otherApi } = useTestApp()
  const itemsOf = async (channelId: number) =>
    (await api('GET', `/api/channel/${channelId}?limit=100`)).data.data.items.map((item: { type: string; id: number }) => `${item.type}:${item.id}`)

  it('reads one channel under `data`; 404 for an unknown one and for another account’s', async () => {
    const id = await createChannel(context, owner, { name: 'Readable', description: 'Spring posts', color: '#ABCDEF', starred: true })
    const response = await api('GET', `/api/channel/${id}/details`)
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({ error: 0, data: { id, name: 'Readable', description: 'Spring posts', color: '#abcdef', starred: true } })
    const theirs = await createChannel(context, other, { name: 'Theirs to read' })
    for (const missing of [999999, theirs]) {
      const refused = await api('GET', `/api/channel/${missing}/details`)
      expect(refused.statusCode).toBe(404)
      expect(refused.data).toEqual({ error: 1, message: 'Channel not found. Please try again.', code: 'not_found' })
    }
  })

  it('removes a link, a bio page and a QR code; the items themselves stay', async () => {
    const id = await createChannel(context, owner, { name: 'Shelf to empty' })
    const link = await createLink(context, owner)
    const bio = await createBioPage(context, owner)
    const qr = await createQrCode(context, owner)
    for (const [type, itemId] of [['links', link.id], ['bio', bio.id], ['qr', qr.id]] as const) {
      expect((await api('POST', `/api/channel/${id}/assign/${type}/${itemId}`)).statusCode).toBe(200)
    }
    const removed = await api('DELETE', `/api/channel/${id}/assign/bio/${bio.id}`)
    expect(removed.statusCode).toBe(200)
    expect(removed.data).toEqual({ error: 0, message: 'Item successfully removed from the channel.' })
    expect((await itemsOf(id)).sort()).toEqual([`links:${link.id}`, `qr:${qr.id}`].sort())
    expect((await api('DELETE', `/api/channel/${id}/assign/links/${link.id}`)).statusCode).toBe(200)
    expect((await api('DELETE', `/api/channel/${id}/assign/qr/${qr.id}`)).statusCode).toBe(200)
    expect(await itemsOf(id)).toEqual([])
    expect((await api('GET', `/api/bio/${bio.id}`)).statusCode).toBe(200)
    expect((await api('GET', `/api/url/${link.id}`)).statusCode).toBe(200)
  })

  it('removes from one channel only, and answers 404 for an item that is not in it', async () => {
    const first = await createChannel(context, owner, { name: 'First shelf' })
    const second = await createChannel(context, owner, { name: 'Second shelf' })
    const qr = await createQrCode(context, owner)
    await api('POST', `/api/channel/${first}/assign/qr/${qr.id}`)
    await api('POST', `/api/channel/${second}/assign/qr/${qr.id}`)
    expect((await api('DELETE', `/api/channel/${first}/assign/qr/${qr.id}`)).statusCode).toBe(200)
    expect(await itemsOf(second)).toEqual([`qr:${qr.id}`])
    const again = await api('DELETE', `/api/channel/${first}/assign/qr/${qr.id}`)
    expect(again.statusCode).toBe(404)
    expect(again.data).toEqual({ error: 1, message: 'Item not found. Please try again.', code: 'not_found' })
    // The same id under another type is another item.
    expect((await api('DELETE', `/api/channel/${second}/assign/links/${qr.id}`)).statusCode).toBe(404)
  })

  it('never removes through another account’s channel', async () => {
    const mine = await createChannel(context, owner, { name: 'Guarded shelf' })
    const qr = await createQrCode(context, owner)
    await api('POST', `/api/channel/${mine}/assign/qr/${qr.id}`)
    const response = await otherApi('DELETE', `/api/channel/${mine}/assign/qr/${qr.id}`)
    expect(response.statusCode).toBe(404)
    expect(response.data.message).toBe('Channel not found. Please try again.')
    expect(await itemsOf(mine)).toEqual([`qr:${qr.id}`])
  })

  it.each([
    ['1/assign/pages/1', 'type'],
    ['abc/assign/qr/1', 'channelid'],
    ['1/assign/qr/0', 'itemid'],
  ])('refuses DELETE /api/channel/%s with a 400 naming %s', async (path, field) => {
    const response = await api('DELETE', `/api/channel/${path}`)
    expect(response.statusCode).toBe(400)
    expect(response.data.code).toBe('validation_failed')
    expect(response.data.message).toContain(field)
  })

  it('lists starred channels first, each group newest first', async () => {
    const fresh = await import('../../helpers/test-app.js')
    const context2 = await fresh.createTestApp()
    try {
      const client = fresh.apiClient(context2.app, (await fresh.createAccount(context2)).apiKey)
      for (const [name, starred] of [['plain old', false], ['starred old', true], ['plain new', false], ['starred new', true]] as const) {
        await client('POST', '/api/channel/add', { name, starred })
      }
      const listed = await client('GET', '/api/channels')
      expect(listed.data.data.channels.map((channel: { name: string }) => channel.name)).toEqual(['starred new', 'starred old', 'plain new', 'plain old'])
      const paged = await client('GET', '/api/channels?limit=3&page=2')
      expect(paged.data.data.channels.map((channel: { name: string }) => channel.name)).toEqual(['plain old'])
    } finally {
      await context2.close()
    }
  })
})
