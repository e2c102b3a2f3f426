import { describe, expect, it } from 'vitest'
import { fieldError } from '../../helpers/envelope.js'
import { apiClient, createAccount, type ApiClient, useTestApp } from '../../helpers/test-app.js'

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
const PAGE = { name: 'Launch page', title: 'Our new app is out' }

describe('custom splash page endpoints', () => {

  async function storedPage(id: number) {
    const row = await context.database.db.selectFrom('splash_pages').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    return { name: row.name, config: JSON.parse(row.config) as Record<string, unknown> }
  }

  async function listAll(client: ApiClient) {
    return (await client('GET', '/api/splash?limit=100')).data.data.splash as Array<{ id: number; name: string; date: string }>
  }

  const { context, api, otherApi } = useTestApp()

  it('creates a splash page, answers 201 {error:0, id} and stores its fields', async () => {
    const response = await api('POST', '/api/splash/add', {
      ...PAGE,
      description: 'Download it today.',
      image: 'https://cdn.example/banner.png',
      link: 'https://shop.example/app',
      counter: 10,
      evil: '<script>',
    })
    expect(response.statusCode).toBe(201)
    expect(response.data).toEqual({ error: 0, id: expect.any(Number) })
    expect(await storedPage(response.data.id)).toEqual({
      name: 'Launch page',
      config: { title: 'Our new app is out', description: 'Download it today.', image: 'https://cdn.example/banner.png', link: 'https://shop.example/app', counter: 10 },
    })
    const listed = (await listAll(api)).find((page) => page.id === response.data.id)
    expect(listed).toEqual({ id: response.data.id, name: 'Launch page', date: expect.stringMatching(DATE_TIME) })
  })

  it('waits 5 seconds unless told otherwise, and accepts 0 and 60', async () => {
    const bare = await api('POST', '/api/splash/add', { name: ' Bare page ', title: ' Just a title ', description: '', image: '' })
    expect(await storedPage(bare.data.id)).toEqual({ name: 'Bare page', config: { title: 'Just a title', counter: 5 } })
    for (const counter of [0, 60]) {
      const response = await api('POST', '/api/splash/add', { ...PAGE, counter })
      expect(response.statusCode).toBe(201)
      expect((await storedPage(response.data.id)).config.counter).toBe(counter)
    }
  })

  it.each([
    [{ title: 'No name' }, 'The field "name" is required.'],
    [{ ...PAGE, name: 'x' }, 'The field "name" must be 2 to 100 characters.'],
    [{ ...PAGE, name: 'x'.repeat(101) }, 'The field "name" must be 2 to 100 characters.'],
    [{ ...PAGE, name: 7 }, 'The field "name" must be 2 to 100 characters.'],
    [{ ...PAGE, name: '   ' }, 'The field "name" must be 2 to 100 characters.'],
    [{ name: 'No title' }, 'The field "title" is required.'],
    [{ ...PAGE, title: '' }, 'The field "title" must be 1 to 100 characters.'],
    [{ ...PAGE, title: '  ' }, 'The field "title" must be 1 to 100 characters.'],
    [{ ...PAGE, title: 't'.repeat(101) }, 'The field "title" must be 1 to 100 characters.'],
    [{ ...PAGE, description: 'd'.repeat(1001) }, 'The field "description" must be text of at most 1000 characters.'],
    [{ ...PAGE, description: ['a'] }, 'The field "description" must be text of at most 1000 characters.'],
    [{ ...PAGE, image: 'file:///etc/passwd' }, 'The field "image" must be an http or https URL.'],
    [{ ...PAGE, link: 'javascript:alert(1)' }, 'The field "link" must be an http or https URL.'],
    [{ ...PAGE, counter: -1 }, 'The field "counter" must be a whole number of seconds from 0 to 60.'],
    [{ ...PAGE, counter: 61 }, 'The field "counter" must be a whole number of seconds from 0 to 60.'],
    [{ ...PAGE, counter: 2.5 }, 'The field "counter" must be a whole number of seconds from 0 to 60.'],
    [{ ...PAGE, counter: '5' }, 'The field "counter" must be a whole number of seconds from 0 to 60.'],
  ])('refuses %j with a 400: %s', async (body, message) => {
    const response = await api('POST', '/api/splash/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
  })

  it('updates the given fields, clears optional ones with an empty string, keeps the rest', async () => {
    const created = await api('POST', '/api/splash/add', { ...PAGE, description: 'Old text', image: 'https://cdn.example/old.png', counter: 8 })
    const id = created.data.id
    const updated = await api('PUT', `/api/splash/${id}/update`, { name: 'Relaunch page', link: 'https://shop.example/v2', image: '', counter: 0 })
    expect(updated.statusCode).toBe(200)
    expect(updated.data).toEqual({ error: 0, message: 'Splash page has been updated successfully.' })
    expect(await storedPage(id)).toEqual({ name: 'Relaunch page', config: { title: PAGE.title, description: 'Old text', link: 'https://shop.example/v2', counter: 0 } })
    expect((await api('PUT', `/api/splash/${id}/update`, { title: 'Version 2 is here' })).statusCode).toBe(200)
    expect((await api('PUT', `/api/splash/${id}/update`, {})).statusCode).toBe(200)
    expect(await storedPage(id)).toEqual({ name: 'Relaunch page', config: { title: 'Version 2 is here', description: 'Old text', link: 'https://shop.example/v2', counter: 0 } })
  })

  it.each([
    [{ name: 'x' }, 'The field "name" must be 2 to 100 characters.'],
    [{ title: '' }, 'The field "title" must be 1 to 100 characters.'],
    [{ title: ' ' }, 'The field "title" must be 1 to 100 characters.'],
    [{ description: 5 }, 'The field "description" must be text of at most 1000 characters.'],
    [{ image: 'not a url' }, 'The field "image" must be an http or https URL.'],
    [{ link: 'mailto:a@example.com' }, 'The field "link" must be an http or https URL.'],
    [{ counter: 100 }, 'The field "counter" must be a whole number of seconds from 0 to 60.'],
    [{ counter: '' }, 'The field "counter" must be a whole number of seconds from 0 to 60.'],
  ])('refuses the update %j with a 400: %s', async (body, message) => {
    const created = await api('POST', '/api/splash/add', PAGE)
    const response = await api('PUT', `/api/splash/${created.data.id}/update`, body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
    expect(await storedPage(created.data.id)).toEqual({ name: PAGE.name, config: { title: PAGE.title, counter: 5 } })
  })

  it('deletes a splash page; a second delete and an update of it are 404', async () => {
    const created = await api('POST', '/api/splash/add', PAGE)
    const deleted = await api('DELETE', `/api/splash/${created.data.id}/delete`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.data).toEqual({ error: 0, message: 'Splash page has been deleted successfully.' })
    const again = await api('DELETE', `/api/splash/${created.data.id}/delete`)
    expect(again.statusCode).toBe(404)
    expect(again.data).toEqual({ error: 1, message: 'Splash page not found. Please try again.', code: 'not_found' })
    expect((await api('PUT', `/api/splash/${created.data.id}/update`, { name: 'Ghost' })).statusCode).toBe(404)
  })

  it('never shows or touches another account’s splash page', async () => {
    const created = await api('POST', '/api/splash/add', { ...PAGE, name: 'Mine only' })
    const id = created.data.id
    const update = await otherApi('PUT', `/api/splash/${id}/update`, { title: 'Theirs now' })
    expect(update.statusCode).toBe(404)
    expect(update.data.message).toBe('Splash page not found. Please try again.')
    expect((await otherApi('DELETE', `/api/splash/${id}/delete`)).statusCode).toBe(404)
    expect((await listAll(otherApi)).map((page) => page.id)).not.toContain(id)
    expect(await storedPage(id)).toEqual({ name: 'Mine only', config: { title: PAGE.title, counter: 5 } })
  })

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('refuses the path id %s with a 400', async (id) => {
    for (const [method, url] of [['PUT', `/api/splash/${id}/update`], ['DELETE', `/api/splash/${id}/delete`]] as const) {
      const response = await api(method, url, {})
      expect(response.statusCode).toBe(400)
      expect(response.data.code).toBe('validation_failed')
      expect(response.data.message).toContain('"id"')
    }
  })

  it('lists with the envelope under `splash`, newest first, paged', async () => {
    const client = apiClient(context.app, (await createAccount(context)).apiKey)
    for (const name of ['one', 'two', 'three', 'four']) await client('POST', '/api/splash/add', { ...PAGE, name })
    const first = await client('GET', '/api/splash?limit=3')
    expect(first.statusCode).toBe(200)
    expect(first.data.error).toBe('0')
    expect(first.data.data).toMatchObject({ result: 4, perpage: 3, currentpage: 1, nextpage: 2, maxpage: 2 })
    expect(first.data.data.splash.map((page: { name: string }) => page.name)).toEqual(['four', 'three', 'two'])
    expect(Object.keys(first.data.data.splash[0]).sort()).toEqual(['date', 'id', 'name'])
    const second = await client('GET', '/api/splash?limit=3&page=2')
    expect(second.data.data).toMatchObject({ result: 4, currentpage: 2, nextpage: null, maxpage: 2 })
    expect(second.data.data.splash.map((page: { name: string }) => page.name)).toEqual(['one'])
    expect((await client('GET', '/api/splash?limit=3&page=9')).data.data.splash).toEqual([])
    expect((await client('GET', '/api/splash?limit=0')).statusCode).toBe(400)
  })

  it('enforces the plan limit on splash pages', async () => {
    const db = context.database.db
    const plan = await db.insertInto('plans').values({ name: 'One splash', code: 'one-splash', apirate: null, limits: '{"splash":1}', is_default: 0, created_at: '2026-01-01 00:00:00' }).returning('id').executeTakeFirstOrThrow()
    const client = apiClient(context.app, (await createAccount(context, { plan: plan.id })).apiKey)
    expect((await client('POST', '/api/splash/add', PAGE)).statusCode).toBe(201)
    const second = await client('POST', '/api/splash/add', PAGE)
    expect(second.statusCode).toBe(403)
    expect(second.data.code).toBe('plan_limit_reached')
  })
})
