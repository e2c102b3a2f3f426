import { describe, expect, it } from 'vitest'
import { apiClient, createAccount, PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { createBioPage, createLink, uniqueAlias } from '../../helpers/factories.js'

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('bio page changes: update, delete, channels, isolation', () => {

  const { context, owner, other, api, otherApi } = useTestApp()

  describe('update', () => {
    it('changes each field; blocks replace the whole list', async () => {
      const { id } = await createBioPage(context, owner, {
        name: 'Before',
        description: 'old text',
        avatar: 'https://cdn.example.com/old.png',
        blocks: [{ title: 'Old 1', url: 'https://old.example/1' }, { title: 'Old 2', url: 'https://old.example/2' }],
      })
      const alias = uniqueAlias('after')
      const updated = await api('PUT', `/api/bio/${id}/update`, {
        name: 'After',
        alias,
        description: 'new text',
        avatar: 'http://cdn.example.com/new.png',
        blocks: [{ title: 'New', url: 'https://new.example/' }],
      })
      expect(updated.statusCode).toBe(200)
      expect(updated.data).toEqual({ error: 0, message: 'Bio page has been updated successfully.' })
      const read = await api('GET', `/api/bio/${id}`)
      expect(read.data.data).toMatchObject({
        id,
        alias,
        name: 'After',
        description: 'new text',
        avatar: 'http://cdn.example.com/new.png',
        url: `${PUBLIC_URL}/${alias}`,
        blocks: [{ title: 'New', url: 'https://new.example/' }],
      })
    })

    it('leaves fields that are not given as they were; an empty body changes nothing', async () => {
      const alias = uniqueAlias('keep')
      const blocks = [{ title: 'Stay', url: 'https://stay.example/' }]
      const { id } = await createBioPage(context, owner, { name: 'Keeper', alias, description: 'kept', avatar: 'https://cdn.example.com/k.png', blocks })
      const before = (await api('GET', `/api/bio/${id}`)).data.data
      expect((await api('PUT', `/api/bio/${id}/update`, { name: 'Renamed' })).statusCode).toBe(200)
      expect((await api('GET', `/api/bio/${id}`)).data.data).toMatchObject({ ...before, name: 'Renamed', updated: expect.any(String) })
      expect((await api('PUT', `/api/bio/${id}/update`, {})).statusCode).toBe(200)
      expect((await api('GET', `/api/bio/${id}`)).data.data).toMatchObject({ alias, name: 'Renamed', description: 'kept', blocks })
    })

    it('clears the description, the avatar and the blocks with empty values', async () => {
      const { id } = await createBioPage(context, owner, { name: 'Full', description: 'text', avatar: 'https://cdn.example.com/a.png', blocks: [{ title: 'A', url: 'https://a.example/' }] })
      expect((await api('PUT', `/api/bio/${id}/update`, { description: '', avatar: '', blocks: [] })).statusCode).toBe(200)
      expect((await api('GET', `/api/bio/${id}`)).data.data).toMatchObject({ description: '', avatar: null, blocks: [] })
    })

    it('moves `updated` and keeps `date`', async () => {
      const { id } = await createBioPage(context, owner, { name: 'Timed' })
      await context.database.db.updateTable('bio_pages').set({ created_at: '2024-01-02 03:04:05', updated_at: '2024-01-02 03:04:05' }).where('id', '=', id).execute()
      await api('PUT', `/api/bio/${id}/update`, { name: 'Timed again' })
      const read = (await api('GET', `/api/bio/${id}`)).data.data
      expect(read.date).toBe('2024-01-02 03:04:05')
      expect(read.updated).toMatch(DATE_TIME)
      expect(read.updated > read.date).toBe(true)
    })

    it('frees the old alias when the alias changes, and accepts the page’s own alias in another case', async () => {
      const oldAlias = uniqueAlias('old')
      const { id } = await createBioPage(context, owner, { name: 'Mover', alias: oldAlias })
      expect((await api('PUT', `/api/bio/${id}/update`, { alias: oldAlias.toUpperCase() })).statusCode).toBe(200)
      expect((await api('PUT', `/api/bio/${id}/update`, { alias: oldAlias.toUpperCase() })).statusCode).toBe(200)
      expect((await api('PUT', `/api/bio/${id}/update`, { alias: uniqueAlias('new') })).statusCode).toBe(200)
      expect((await otherApi('POST', '/api/bio/add', { name: 'Takes old', alias: oldAlias })).statusCode).toBe(201)
    })

    it('refuses an alias that is reserved, used by another bio page or by a main-host link', async () => {
      const { id } = await createBioPage(context, owner, { name: 'Wants alias' })
      const bioAlias = uniqueAlias('bio-taken')
      await createBioPage(context, other, { name: 'Holder', alias: bioAlias })
      const linkAlias = uniqueAlias('link-taken')
      await createLink(context, owner, { custom: linkAlias })
      const reserved = await api('PUT', `/api/bio/${id}/update`, { alias: 'Metrics' })
      expect(reserved.statusCode).toBe(400)
      expect(reserved.data.message).toBe('This alias is reserved. Please choose another one.')
      for (const alias of [bioAlias.toUpperCase(), linkAlias]) {
        const taken = await api('PUT', `/api/bio/${id}/update`, { alias })
        expect(taken.statusCode).toBe(400)
        expect(taken.data).toEqual({ error: 1, message: 'That alias is taken. Please choose another one.', code: 'duplicate', field: 'alias' })
      }
    })

    it.each([
      [{ name: 'x' }, 'name'],
      [{ name: '  ' }, 'name'],
      [{ name: '' }, 'name'],
      [{ alias: 'a b' }, 'alias'],
      [{ alias: '' }, 'alias'],
      [{ description: 'd'.repeat(501) }, 'description'],
      [{ avatar: 'javascript:alert(1)' }, 'avatar'],
      [{ blocks: '' }, 'blocks'],
      [{ blocks: [{ title: 'A', url: 'data:text/html,hi' }] }, 'blocks.0.url'],
      [{ blocks: [{ title: '', url: 'https://a.example/' }] }, 'blocks.0.title'],
    ])('refuses the update %j with a 400 naming %s and changes nothing', async (body, field) => {
      const { id } = await createBioPage(context, owner, { name: 'Unchanged', blocks: [{ title: 'Keep', url: 'https://keep.example/' }] })
      const before = (await api('GET', `/api/bio/${id}`)).data.data
      const response = await api('PUT', `/api/bio/${id}/update`, body)
      expect(response.statusCode).toBe(400)
      expect(response.data.code).toBe('validation_failed')
      expect(response.data.message).toContain(`"${field}"`)
      expect((await api('GET', `/api/bio/${id}`)).data.data).toEqual(before)
    })

    it('answers 404 for an unknown id', async () => {
      const response = await api('PUT', '/api/bio/987654/update', { name: 'Nobody' })
      expect(response.statusCode).toBe(404)
      expect(response.data.message).toBe('Bio page not found. Please try again.')
    })
  })

  describe('delete', () => {
    it('deletes a bio page; a second delete is a 404 and its alias is free again', async () => {
      const alias = uniqueAlias('doomed')
      const { id } = await createBioPage(context, owner, { name: 'Doomed', alias })
      const deleted = await api('DELETE', `/api/bio/${id}/delete`)
      expect(deleted.statusCode).toBe(200)
      expect(deleted.data).toEqual({ error: 0, message: 'Bio page has been deleted successfully.' })
      expect((await api('GET', `/api/bio/${id}`)).statusCode).toBe(404)
      const again = await api('DELETE', `/api/bio/${id}/delete`)
      expect(again.statusCode).toBe(404)
      expect(again.data.message).toBe('Bio page not found. Please try again.')
      expect((await api('POST', '/api/bio/add', { name: 'Reuses', alias })).statusCode).toBe(201)
    })
  })

  describe('channels', () => {
    async function createChannel(name: string): Promise<number> {
      const response = await api('POST', '/api/channel/add', { name })
      expect(response.statusCode).toBe(201)
      return response.data.id
    }

    it('lists a bio page in a channel by name, page URL and avatar (else the page URL) as preview', async () => {
      const channelId = await createChannel('Bio shelf')
      const withAvatar = await createBioPage(context, owner, { name: 'Pictured', alias: uniqueAlias('pic'), avatar: 'https://cdn.example.com/p.png' })
      const plain = await createBioPage(context, owner, { name: 'Plain', alias: uniqueAlias('plain') })
      for (const { id } of [withAvatar, plain]) {
        const assigned = await api('POST', `/api/channel/${channelId}/assign/bio/${id}`)
        expect(assigned.statusCode).toBe(200)
      }
      const listed = await api('GET', `/api/channel/${channelId}`)
      expect(listed.data.data.items).toEqual([
        { type: 'bio', id: plain.id, title: 'Plain', preview: `${PUBLIC_URL}/${plain.alias}`, link: `${PUBLIC_URL}/${plain.alias}`, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
        { type: 'bio', id: withAvatar.id, title: 'Pictured', preview: 'https://cdn.example.com/p.png', link: `${PUBLIC_URL}/${withAvatar.alias}`, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
      ])
    })

    it('does not assign another account’s bio page', async () => {
      const channelId = await createChannel('Not theirs')
      const theirs = await createBioPage(context, other, { name: 'Theirs' })
      const response = await api('POST', `/api/channel/${channelId}/assign/bio/${theirs.id}`)
      expect(response.statusCode).toBe(404)
    })

    it('takes a deleted bio page out of every channel', async () => {
      const channels = [await createChannel('Bio A'), await createChannel('Bio B')]
      const doomed = await createBioPage(context, owner, { name: 'Leaves channels' })
      const stays = await createBioPage(context, owner, { name: 'Stays in channels' })
      for (const channelId of channels) {
        for (const { id } of [doomed, stays]) await api('POST', `/api/channel/${channelId}/assign/bio/${id}`)
      }
      expect((await api('DELETE', `/api/bio/${doomed.id}/delete`)).statusCode).toBe(200)
      const rows = await context.database.db.selectFrom('channel_items').select(['channel_id', 'item_id']).where('item_type', '=', 'bio').where('channel_id', 'in', channels).execute()
      expect(rows.map((row) => row.item_id).sort()).toEqual([stays.id, stays.id])
    })
  })

  describe('isolation', () => {
    it('never shows or touches another account’s bio page', async () => {
      const alias = uniqueAlias('private')
      const { id } = await createBioPage(context, owner, { name: 'Private to owner', alias })
      const read = await otherApi('GET', `/api/bio/${id}`)
      expect(read.statusCode).toBe(404)
      expect(read.data.message).toBe('Bio page not found. Please try again.')
      expect((await otherApi('PUT', `/api/bio/${id}/update`, { name: 'Hijack' })).statusCode).toBe(404)
      expect((await otherApi('DELETE', `/api/bio/${id}/delete`)).statusCode).toBe(404)
      const list = await otherApi('GET', '/api/bio?limit=100')
      expect(list.data.data.bio.map((entry: { id: number }) => entry.id)).not.toContain(id)
      expect((await api('GET', `/api/bio/${id}`)).data.data).toMatchObject({ name: 'Private to owner', alias })
    })

    it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses the path id %s with a 400 on every endpoint', async (id) => {
      for (const [method, url] of [['GET', `/api/bio/${id}`], ['PUT', `/api/bio/${id}/update`], ['DELETE', `/api/bio/${id}/delete`]] as const) {
        const response = await api(method, url, method === 'PUT' ? { name: 'Whatever' } : undefined)
        expect(response.statusCode).toBe(400)
        expect(response.data.code).toBe('validation_failed')
      }
    })
  })

  it('enforces the plan limit on bio pages', async () => {
    const db = context.database.db
    const plan = await db.insertInto('plans').values({ name: 'Bio tiny', code: 'biotiny', apirate: null, limits: '{"bio":1}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
    const limited = await createAccount(context, { plan: plan.id })
    const client = apiClient(context.app, limited.apiKey)
    expect((await client('POST', '/api/bio/add', { name: 'first' })).statusCode).toBe(201)
    const second = await client('POST', '/api/bio/add', { name: 'second' })
    expect(second.statusCode).toBe(403)
    expect(second.data.code).toBe('plan_limit_reached')
  })
})
