import { describe, expect, it } from 'vitest'
import { removeItemFromAllChannels } from '../../../src/modules/channels/channel-items.repository.js'
import { PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { createChannel, createQrCode } from '../../helpers/factories.js'

describe('channel items and assignment', () => {
  const { context, owner, other, api } = useTestApp()
  const channelItemRows = (channelId: number) => context.database.db.selectFrom('channel_items').selectAll().where('channel_id', '=', channelId).execute()

  it('assigns a QR code and lists it with its public URL as link and preview', async () => {
    const channelId = await createChannel(context, owner, { name: 'QR shelf' })
    const qr = await createQrCode(context, owner, { name: 'Menu card' })
    const assigned = await api('POST', `/api/channel/${channelId}/assign/qr/${qr.id}`)
    expect(assigned.statusCode).toBe(200)
    expect(assigned.data).toEqual({ error: 0, message: 'Item successfully added to the channel.' })
    const [row] = await channelItemRows(channelId)
    expect(row).toMatchObject({ account_id: owner.id, item_type: 'qr', item_id: qr.id })
    const listed = await api('GET', `/api/channel/${channelId}`)
    expect(listed.statusCode).toBe(200)
    expect(listed.data).toEqual({
      error: '0',
      data: {
        result: 1,
        perpage: 15,
        currentpage: 1,
        nextpage: null,
        maxpage: 1,
        items: [{ type: 'qr', id: qr.id, title: 'Menu card', preview: `${PUBLIC_URL}/qr/${qr.alias}`, link: `${PUBLIC_URL}/qr/${qr.alias}`, date: row!.created_at.slice(0, 10) }],
      },
    })
  })

  it('dates an item by its assignment, as YYYY-MM-DD', async () => {
    const channelId = await createChannel(context, owner, { name: 'Dated shelf' })
    const qr = await createQrCode(context, owner, { name: 'Dated' })
    await api('POST', `/api/channel/${channelId}/assign/qr/${qr.id}`)
    await context.database.db.updateTable('channel_items').set({ created_at: '2025-03-04 22:10:05' }).where('channel_id', '=', channelId).execute()
    const listed = await api('GET', `/api/channel/${channelId}`)
    expect(listed.data.data.items[0].date).toBe('2025-03-04')
  })

  it('lists items newest assignment first, paged', async () => {
    const channelId = await createChannel(context, owner, { name: 'Paged shelf' })
    const first = await createQrCode(context, owner, { name: 'first made' })
    const second = await createQrCode(context, owner, { name: 'second made' })
    const third = await createQrCode(context, owner, { name: 'third made' })
    // Assigned in an order unlike their ids: the listing follows the assignment.
    for (const qr of [third, first, second]) expect((await api('POST', `/api/channel/${channelId}/assign/qr/${qr.id}`)).statusCode).toBe(200)
    const page1 = await api('GET', `/api/channel/${channelId}?limit=2`)
    expect(page1.data.data).toMatchObject({ result: 3, perpage: 2, currentpage: 1, nextpage: 2, maxpage: 2 })
    expect(page1.data.data.items.map((item: { id: number }) => item.id)).toEqual([second.id, first.id])
    const page2 = await api('GET', `/api/channel/${channelId}?limit=2&page=2`)
    expect(page2.data.data).toMatchObject({ result: 3, currentpage: 2, nextpage: null })
    expect(page2.data.data.items.map((item: { id: number }) => item.id)).toEqual([third.id])
    const past = await api('GET', `/api/channel/${channelId}?limit=2&page=5`)
    expect(past.data.data.items).toEqual([])
    expect((await api('GET', `/api/channel/${channelId}?limit=0`)).statusCode).toBe(400)
  })

  it('lists an empty channel with an empty array', async () => {
    const channelId = await createChannel(context, owner, { name: 'Empty shelf' })
    const listed = await api('GET', `/api/channel/${channelId}`)
    expect(listed.data).toEqual({ error: '0', data: { result: 0, perpage: 15, currentpage: 1, nextpage: null, maxpage: 0, items: [] } })
  })

  it('refuses the same item twice in a channel but allows it in many channels', async () => {
    const channelA = await createChannel(context, owner, { name: 'Shelf A' })
    const channelB = await createChannel(context, owner, { name: 'Shelf B' })
    const qr = await createQrCode(context, owner, { name: 'Shared' })
    expect((await api('POST', `/api/channel/${channelA}/assign/qr/${qr.id}`)).statusCode).toBe(200)
    const twice = await api('POST', `/api/channel/${channelA}/assign/qr/${qr.id}`)
    expect(twice.statusCode).toBe(400)
    expect(twice.data).toEqual({ error: 1, message: 'This item is already added to the selected channel.', code: 'duplicate' })
    expect((await api('POST', `/api/channel/${channelB}/assign/qr/${qr.id}`)).statusCode).toBe(200)
    expect(await channelItemRows(channelA)).toHaveLength(1)
    expect((await api('GET', `/api/channel/${channelB}`)).data.data.items.map((item: { id: number }) => item.id)).toEqual([qr.id])
  })

  it('answers concurrent duplicate assignments and creations with one success and one 400', async () => {
    const channelId = await createChannel(context, owner, { name: 'Race shelf' })
    const qr = await createQrCode(context, owner, { name: 'raced' })
    const assigns = await Promise.all([1, 2].map(() => api('POST', `/api/channel/${channelId}/assign/qr/${qr.id}`)))
    expect(assigns.map((response) => response.statusCode).sort()).toEqual([200, 400])
    expect(assigns.find((response) => response.statusCode === 400)!.data.message).toBe('This item is already added to the selected channel.')
    expect(await channelItemRows(channelId)).toHaveLength(1)
    const creations = await Promise.all([1, 2].map(() => api('POST', '/api/channel/add', { name: 'Raced name' })))
    expect(creations.map((response) => response.statusCode).sort()).toEqual([201, 400])
    expect(creations.find((response) => response.statusCode === 400)!.data.message).toBe('You already have a channel with this name.')
  })

  it('leaves out items whose record was deleted', async () => {
    const channelId = await createChannel(context, owner, { name: 'Vanishing shelf' })
    const kept = await createQrCode(context, owner, { name: 'kept' })
    const gone = await createQrCode(context, owner, { name: 'gone' })
    await api('POST', `/api/channel/${channelId}/assign/qr/${kept.id}`)
    await api('POST', `/api/channel/${channelId}/assign/qr/${gone.id}`)
    // The membership row stays behind on purpose: the listing must not trust it.
    await context.database.db.deleteFrom('qr_codes').where('id', '=', gone.id).execute()
    const listed = await api('GET', `/api/channel/${channelId}`)
    expect(listed.data.data.result).toBe(1)
    expect(listed.data.data.items.map((item: { id: number }) => item.id)).toEqual([kept.id])
  })

  it('removeItemFromAllChannels takes an item out of every channel of its account only', async () => {
    const channelA = await createChannel(context, owner, { name: 'Cleanup A' })
    const channelB = await createChannel(context, owner, { name: 'Cleanup B' })
    const qr = await createQrCode(context, owner, { name: 'to remove' })
    const stays = await createQrCode(context, owner, { name: 'stays' })
    for (const channelId of [channelA, channelB]) {
      await api('POST', `/api/channel/${channelId}/assign/qr/${qr.id}`)
      await api('POST', `/api/channel/${channelId}/assign/qr/${stays.id}`)
    }
    // Another account's call with the same ids removes nothing of ours.
    await removeItemFromAllChannels(context.database.db, other.id, 'qr', qr.id)
    expect(await channelItemRows(channelA)).toHaveLength(2)
    await removeItemFromAllChannels(context.database.db, owner.id, 'qr', qr.id)
    for (const channelId of [channelA, channelB]) {
      expect((await channelItemRows(channelId)).map((row) => row.item_id)).toEqual([stays.id])
    }
  })

  it.each(['links', 'bio'])('answers 404 for a %s item: none exist yet', async (type) => {
    const channelId = await createChannel(context, owner, { name: `No ${type} yet` })
    const response = await api('POST', `/api/channel/${channelId}/assign/${type}/1`)
    expect(response.statusCode).toBe(404)
    expect(response.data).toEqual({ error: 1, message: 'Item not found. Please try again.', code: 'not_found' })
  })

  it.each(['pages', 'QR', 'link', '1'])('refuses the item type %s with a 400 naming "type"', async (type) => {
    const channelId = await createChannel(context, owner, { name: `Bad type ${type}` })
    const response = await api('POST', `/api/channel/${channelId}/assign/${type}/1`)
    expect(response.statusCode).toBe(400)
    expect(response.data.code).toBe('validation_failed')
    expect(response.data.message).toBe('The path parameter "type" must be one of links, bio, qr.')
  })

  it('answers 404 for an unknown QR code and for an unknown channel', async () => {
    const channelId = await createChannel(context, owner, { name: 'Unknown things' })
    const noItem = await api('POST', `/api/channel/${channelId}/assign/qr/999999`)
    expect(noItem.statusCode).toBe(404)
    expect(noItem.data.message).toBe('Item not found. Please try again.')
    const qr = await createQrCode(context, owner, { name: 'orphan' })
    const noChannel = await api('POST', `/api/channel/999999/assign/qr/${qr.id}`)
    expect(noChannel.statusCode).toBe(404)
    expect(noChannel.data.message).toBe('Channel not found. Please try again.')
    const noList = await api('GET', '/api/channel/999999')
    expect(noList.statusCode).toBe(404)
    expect(noList.data).toEqual({ error: 1, message: 'Channel not found. Please try again.', code: 'not_found' })
  })
})
