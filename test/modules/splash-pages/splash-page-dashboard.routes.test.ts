// The dashboard's splash page endpoints: the single read (the editor's fields) and the preview
// rendered by the visitors' page code.
import { describe, expect, it } from 'vitest'
import { fieldError } from '../../helpers/envelope.js'
import { createSplashPage } from '../../helpers/factories.js'
import { useTestApp } from '../../helpers/test-app.js'

const XSS = '<script>alert(1)</script>'

describe('custom splash page single read and preview', () => {
  const { context, owner, api, otherApi } = useTestApp()

  it('GET /api/splash/{id} answers the page with its fields', async () => {
    const id = await createSplashPage(context, owner, { name: 'Launch', title: 'Our app is out', description: 'Get it today', image: 'https://cdn.example/banner.png', link: 'https://shop.example/app', counter: 8 })
    const response = await api('GET', `/api/splash/${id}`)
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({
      error: 0,
      data: { id, name: 'Launch', date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), title: 'Our app is out', description: 'Get it today', image: 'https://cdn.example/banner.png', link: 'https://shop.example/app', counter: 8 },
    })
    const bare = await createSplashPage(context, owner, { name: 'Bare', title: 'Just a title' })
    expect((await api('GET', `/api/splash/${bare}`)).data.data).toEqual({ id: bare, name: 'Bare', date: expect.any(String), title: 'Just a title', counter: 5 })
  })

  it('answers 404 for another account\'s or an unknown page, 400 for a bad id', async () => {
    const id = await createSplashPage(context, owner, { name: 'Private', title: 'Mine' })
    const response = await otherApi('GET', `/api/splash/${id}`)
    expect(response.statusCode).toBe(404)
    expect(response.data).toEqual({ error: 1, message: 'Splash page not found. Please try again.', code: 'not_found' })
    expect((await api('GET', '/api/splash/999999')).statusCode).toBe(404)
    expect((await api('GET', '/api/splash/0')).statusCode).toBe(400)
  })

  it('POST /api/splash/preview answers the visitor\'s splash page for unsaved fields, escaped, without the timed forward', async () => {
    const response = await api('POST', '/api/splash/preview', { name: 'Draft', title: `Big ${XSS}`, description: 'Read this first', image: 'https://cdn.example/banner.png', link: 'https://shop.example/app', counter: 12 })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.body).toMatch(/^<!doctype html>/)
    expect(response.body).toContain('<h1>Big &lt;script&gt;alert(1)&lt;/script&gt;</h1>')
    expect(response.body).not.toContain(XSS)
    expect(response.body).toContain('<img src="https://cdn.example/banner.png"')
    expect(response.body).toContain('href="https://shop.example/app"')
    expect(response.body).toContain('in 12 seconds')
    expect(response.body).not.toContain('http-equiv="refresh"')
    // The visitor page's empty icon: no /favicon.ico request from the frame (or from visitors).
    expect(response.body).toContain('<link rel="icon" href="data:,">')
    expect(await context.database.db.selectFrom('splash_pages').selectAll().where('name', '=', 'Draft').execute()).toEqual([])
  })

  it('previews with the default counter when none is given', async () => {
    const response = await api('POST', '/api/splash/preview', { name: 'Draft', title: 'Hello' })
    expect(response.body).toContain('in 5 seconds')
  })

  it.each([
    [{ name: 'Draft' }, 'The field "title" is required.'],
    [{ name: 'Draft', title: '   ' }, 'The field "title" must be 1 to 100 characters.'],
    [{ name: 'Draft', title: 'Hi', counter: 61 }, 'The field "counter" must be a whole number of seconds from 0 to 60.'],
    [{ name: 'Draft', title: 'Hi', image: 'javascript:alert(1)' }, 'The field "image" must be an http or https URL.'],
  ])('preview answers 400 with the create rules (%j)', async (body, message) => {
    const response = await api('POST', '/api/splash/preview', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
  })
})
