import { describe, expect, it } from 'vitest'
import { fieldError } from '../../helpers/envelope.js'
import { type ApiClient, useTestApp } from '../../helpers/test-app.js'

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

  const { context, api } = useTestApp()

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

  // Deleting, another account's page, path ids, the list and the plan limit: test/http/owned-resources.test.ts.
})
