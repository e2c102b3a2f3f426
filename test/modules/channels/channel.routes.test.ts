import { describe, expect, it } from 'vitest'
import { apiClient, createAccount, createTestApp, useTestApp } from '../../helpers/test-app.js'
import { createChannel, createQrCode } from '../../helpers/factories.js'

describe('channel endpoints', () => {
  const { context, owner, other, api, otherApi } = useTestApp()
  const channelItemRows = (channelId: number) => context.database.db.selectFrom('channel_items').selectAll().where('channel_id', '=', channelId).execute()

  describe('create', () => {
    it('creates a channel and answers its fields, the color lower-cased', async () => {
      const response = await api('POST', '/api/channel/add', { name: 'Newsletter', description: 'Monthly mail', color: '#1E90FF', starred: true })
      expect(response.statusCode).toBe(201)
      expect(response.data).toEqual({ error: 0, id: expect.any(Number), name: 'Newsletter', description: 'Monthly mail', color: '#1e90ff', starred: true })
      const short = await api('POST', '/api/channel/add', { name: 'Short color', color: '#ABC' })
      expect(short.data.color).toBe('#abc')
    })

    it('defaults description to empty, starred to false and picks a random #rrggbb color', async () => {
      const response = await api('POST', '/api/channel/add', { name: 'Bare channel' })
      expect(response.statusCode).toBe(201)
      expect(response.data).toEqual({ error: 0, id: expect.any(Number), name: 'Bare channel', description: '', color: expect.stringMatching(/^#[0-9a-f]{6}$/), starred: false })
    })

    it('trims the name', async () => {
      const response = await api('POST', '/api/channel/add', { name: '  Padded name  ' })
      expect(response.data.name).toBe('Padded name')
    })

    it('refuses a duplicate name in the same account but not in another account', async () => {
      await createChannel(context, owner, { name: 'Dup channel' })
      const again = await api('POST', '/api/channel/add', { name: 'Dup channel' })
      expect(again.statusCode).toBe(400)
      expect(again.data).toEqual({ error: 1, message: 'You already have a channel with this name.', code: 'duplicate', field: 'name' })
      expect((await otherApi('POST', '/api/channel/add', { name: 'Dup channel' })).statusCode).toBe(201)
    })

    it.each([
      [{}, 'name'],
      [{ name: 'x' }, 'name'],
      [{ name: '   x   ' }, 'name'],
      [{ name: 'y'.repeat(101) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: null }, 'name'],
      [{ name: 'Valid', description: 'd'.repeat(501) }, 'description'],
      [{ name: 'Valid', description: 5 }, 'description'],
      [{ name: 'Valid', color: 'red' }, 'color'],
      [{ name: 'Valid', color: '#12' }, 'color'],
      [{ name: 'Valid', color: '#1234' }, 'color'],
      [{ name: 'Valid', color: '#GGGGGG' }, 'color'],
      [{ name: 'Valid', color: 'fff' }, 'color'],
      [{ name: 'Valid', color: '#fff ' }, 'color'],
      [{ name: 'Valid', color: 255 }, 'color'],
      [{ name: 'Valid', starred: 'true' }, 'starred'],
      [{ name: 'Valid', starred: 1 }, 'starred'],
    ])('rejects bad input %j with a 400 naming %s', async (body, field) => {
      const response = await api('POST', '/api/channel/add', body)
      expect(response.statusCode).toBe(400)
      expect(response.data.error).toBe(1)
      expect(response.data.code).toBe('validation_failed')
      expect(response.data.message).toContain(`"${field}"`)
    })

    it('accepts a description of exactly 500 characters and a 100-character name', async () => {
      const response = await api('POST', '/api/channel/add', { name: 'n'.repeat(100), description: 'd'.repeat(500) })
      expect(response.statusCode).toBe(201)
    })

    it('ignores unknown body fields', async () => {
      const response = await api('POST', '/api/channel/add', { name: 'With extras', evil: { a: 1 }, account_id: other.id })
      expect(response.statusCode).toBe(201)
      expect(Object.keys(response.data).sort()).toEqual(['color', 'description', 'error', 'id', 'name', 'starred'])
      const row = await context.database.db.selectFrom('channels').select('account_id').where('id', '=', response.data.id).executeTakeFirstOrThrow()
      expect(row.account_id).toBe(owner.id)
    })

    it('enforces the plan limit on channels', async () => {
      const db = context.database.db
      const plan = await db.insertInto('plans').values({ name: 'Tiny channels', code: 'tinych', apirate: null, limits: '{"channels":1}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
      const limited = apiClient(context.app, (await createAccount(context, { plan: plan.id })).apiKey)
      expect((await limited('POST', '/api/channel/add', { name: 'first' })).statusCode).toBe(201)
      const second = await limited('POST', '/api/channel/add', { name: 'second' })
      expect(second.statusCode).toBe(403)
      expect(second.data.code).toBe('plan_limit_reached')
    })
  })

  describe('update', () => {
    it('changes only the given fields and answers the message and the fields', async () => {
      const created = await api('POST', '/api/channel/add', { name: 'Before update', description: 'old', color: '#000000', starred: false })
      const id = created.data.id
      const updated = await api('PUT', `/api/channel/${id}/update`, { name: 'After update', color: '#FFF', starred: true })
      expect(updated.statusCode).toBe(200)
      expect(updated.data).toEqual({ error: 0, message: 'Channel has been updated successfully.', id, name: 'After update', description: 'old', color: '#fff', starred: true })
      const cleared = await api('PUT', `/api/channel/${id}/update`, { description: '' })
      expect(cleared.data).toMatchObject({ name: 'After update', description: '', color: '#fff', starred: true })
      const unstarred = await api('PUT', `/api/channel/${id}/update`, { starred: false })
      expect(unstarred.data.starred).toBe(false)
    })

    it('answers an empty update with the channel unchanged', async () => {
      const created = await api('POST', '/api/channel/add', { name: 'Untouched', color: '#123456' })
      const response = await api('PUT', `/api/channel/${created.data.id}/update`, {})
      expect(response.statusCode).toBe(200)
      expect(response.data).toEqual({ error: 0, message: 'Channel has been updated successfully.', ...created.data })
    })

    it('keeps names unique on update; keeping its own name is fine', async () => {
      await createChannel(context, owner, { name: 'Taken on update' })
      const id = await createChannel(context, owner, { name: 'Renamed later' })
      const clash = await api('PUT', `/api/channel/${id}/update`, { name: 'Taken on update' })
      expect(clash.statusCode).toBe(400)
      expect(clash.data).toEqual({ error: 1, message: 'You already have a channel with this name.', code: 'duplicate', field: 'name' })
      expect((await api('PUT', `/api/channel/${id}/update`, { name: 'Renamed later' })).statusCode).toBe(200)
    })

    it.each([
      [{ name: 'x' }, 'name'],
      [{ name: '  ' }, 'name'],
      [{ name: 'y'.repeat(101) }, 'name'],
      [{ name: false }, 'name'],
      [{ description: 'd'.repeat(501) }, 'description'],
      [{ color: 'red' }, 'color'],
      [{ color: '#12' }, 'color'],
      [{ color: '#GGGGGG' }, 'color'],
      [{ starred: 'true' }, 'starred'],
      [{ starred: 0 }, 'starred'],
    ])('rejects bad update %j with a 400 naming %s', async (body, field) => {
      const id = await createChannel(context, owner, { name: `Update target ${field} ${Math.random()}` })
      const response = await api('PUT', `/api/channel/${id}/update`, body)
      expect(response.statusCode).toBe(400)
      expect(response.data.code).toBe('validation_failed')
      expect(response.data.message).toContain(`"${field}"`)
    })

    it('answers 404 for an unknown channel', async () => {
      const response = await api('PUT', '/api/channel/999999/update', { name: 'Ghost' })
      expect(response.statusCode).toBe(404)
      expect(response.data).toEqual({ error: 1, message: 'Channel not found. Please try again.', code: 'not_found' })
    })
  })

  describe('list', () => {
    it('lists with the envelope, newest first, paged, only the account’s channels', async () => {
      const context2 = await createTestApp()
      try {
        const client = apiClient(context2.app, (await createAccount(context2)).apiKey)
        const stranger = apiClient(context2.app, (await createAccount(context2)).apiKey)
        await stranger('POST', '/api/channel/add', { name: 'not mine' })
        for (const name of ['one', 'two', 'three', 'four']) await client('POST', '/api/channel/add', { name, color: '#abcdef' })
        const first = await client('GET', '/api/channels?limit=3')
        expect(first.statusCode).toBe(200)
        expect(first.data.error).toBe('0')
        expect(first.data.data).toMatchObject({ result: 4, perpage: 3, currentpage: 1, nextpage: 2, maxpage: 2 })
        expect(first.data.data.channels.map((c: { name: string }) => c.name)).toEqual(['four', 'three', 'two'])
        expect(first.data.data.channels[0]).toEqual({ id: expect.any(Number), name: 'four', description: '', color: '#abcdef', starred: false })
        const second = await client('GET', '/api/channels?limit=3&page=2')
        expect(second.data.data).toMatchObject({ result: 4, currentpage: 2, nextpage: null, maxpage: 2 })
        expect(second.data.data.channels.map((c: { name: string }) => c.name)).toEqual(['one'])
        const past = await client('GET', '/api/channels?limit=3&page=9')
        expect(past.data.data.channels).toEqual([])
        expect(past.data.data.nextpage).toBeNull()
        const defaults = await client('GET', '/api/channels')
        expect(defaults.data.data).toMatchObject({ result: 4, perpage: 15, currentpage: 1, nextpage: null, maxpage: 1 })
      } finally {
        await context2.close()
      }
    })

    it.each(['limit=0', 'limit=abc', 'page=0', 'page=1.5'])('refuses the query %s with a 400', async (query) => {
      const response = await api('GET', `/api/channels?${query}`)
      expect(response.statusCode).toBe(400)
      expect(response.data.code).toBe('validation_failed')
    })
  })

  describe('delete', () => {
    it('deletes a channel and unassigns its items, which themselves remain', async () => {
      const channelId = await createChannel(context, owner, { name: 'Doomed shelf' })
      const keepChannel = await createChannel(context, owner, { name: 'Surviving shelf' })
      const qr = await createQrCode(context, owner, { name: 'survivor' })
      await api('POST', `/api/channel/${channelId}/assign/qr/${qr.id}`)
      await api('POST', `/api/channel/${keepChannel}/assign/qr/${qr.id}`)
      const deleted = await api('DELETE', `/api/channel/${channelId}/delete`)
      expect(deleted.statusCode).toBe(200)
      expect(deleted.data).toEqual({ error: 0, message: 'Channel has been deleted successfully.' })
      expect(await channelItemRows(channelId)).toEqual([])
      expect(await channelItemRows(keepChannel)).toHaveLength(1)
      const qrRow = await context.database.db.selectFrom('qr_codes').select('id').where('id', '=', qr.id).executeTakeFirst()
      expect(qrRow).toBeDefined()
      expect((await api('GET', `/api/channel/${channelId}`)).statusCode).toBe(404)
      const again = await api('DELETE', `/api/channel/${channelId}/delete`)
      expect(again.statusCode).toBe(404)
      expect(again.data.message).toBe('Channel not found. Please try again.')
    })
  })

  describe('isolation between accounts', () => {
    it('never shows or touches another account’s channel', async () => {
      const id = await createChannel(context, owner, { name: 'Private shelf' })
      const qr = await createQrCode(context, owner, { name: 'private qr' })
      await api('POST', `/api/channel/${id}/assign/qr/${qr.id}`)
      const theirQr = await createQrCode(context, other, { name: 'their qr' })

      const read = await otherApi('GET', `/api/channel/${id}`)
      expect(read.statusCode).toBe(404)
      expect(read.data.message).toBe('Channel not found. Please try again.')
      expect((await otherApi('PUT', `/api/channel/${id}/update`, { name: 'Hijack' })).statusCode).toBe(404)
      expect((await otherApi('DELETE', `/api/channel/${id}/delete`)).statusCode).toBe(404)
      expect((await otherApi('POST', `/api/channel/${id}/assign/qr/${theirQr.id}`)).statusCode).toBe(404)
      const list = await otherApi('GET', '/api/channels?limit=100')
      expect(list.data.data.channels.map((c: { id: number }) => c.id)).not.toContain(id)

      const unchanged = await api('GET', `/api/channel/${id}`)
      expect(unchanged.data.data.items.map((item: { id: number }) => item.id)).toEqual([qr.id])
      const row = await context.database.db.selectFrom('channels').select('name').where('id', '=', id).executeTakeFirstOrThrow()
      expect(row.name).toBe('Private shelf')
    })

    it('refuses to put one account’s QR code into another account’s channel', async () => {
      const mine = await createQrCode(context, owner, { name: 'not for them' })
      const theirChannel = await createChannel(context, other, { name: 'Their shelf' })
      const response = await otherApi('POST', `/api/channel/${theirChannel}/assign/qr/${mine.id}`)
      expect(response.statusCode).toBe(404)
      expect(response.data.message).toBe('Item not found. Please try again.')
      expect(await channelItemRows(theirChannel)).toEqual([])
    })
  })

  describe('path ids', () => {
    it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses the id %s on every endpoint with a 400', async (id) => {
      const channelId = await createChannel(context, owner, { name: `Path ids ${id}` })
      const calls: Array<[string, string, unknown?]> = [
        ['GET', `/api/channel/${id}`],
        ['PUT', `/api/channel/${id}/update`, { name: 'Whatever' }],
        ['DELETE', `/api/channel/${id}/delete`],
        ['POST', `/api/channel/${id}/assign/qr/1`],
        ['POST', `/api/channel/${channelId}/assign/qr/${id}`],
      ]
      for (const [method, url, body] of calls) {
        const response = await api(method, url, body)
        expect(response.statusCode, `${method} ${url}`).toBe(400)
        expect(response.data.code).toBe('validation_failed')
      }
    })
  })

  it('requires an API key', async () => {
    const anonymous = apiClient(context.app, null)
    expect((await anonymous('GET', '/api/channels')).statusCode).toBe(401)
    expect((await anonymous('POST', '/api/channel/add', { name: 'No key' })).statusCode).toBe(401)
  })
})
