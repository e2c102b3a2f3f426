// POST /api/bio/preview: the dashboard editor's live preview is the visitors' own rendering of the
// unsaved draft, with nothing stored; a draft being typed is shown as far as it can be.
import { describe, expect, it } from 'vitest'
import { apiClient, PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { createBioPage } from '../../helpers/factories.js'

describe('bio page preview', () => {
  const { context, owner, api } = useTestApp()

  it('answers the public page\'s HTML for a draft, blocks in the given order, links opening a new tab', async () => {
    const response = await api('POST', '/api/bio/preview', {
      name: 'Jane Doe',
      alias: 'jane-draft',
      description: 'Designer <b>in</b> Lisbon.',
      avatar: 'https://cdn.example.com/jane.png',
      blocks: [
        { title: 'Shop', url: 'https://shop.example.com/' },
        { title: 'Portfolio', url: 'https://jane.example.com/' },
      ],
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['cache-control']).toBe('no-store')
    const page = response.body
    expect(page.startsWith('<!doctype html>')).toBe(true)
    expect(page).toContain('<h1>Jane Doe</h1>')
    expect(page).toContain('Designer &lt;b&gt;in&lt;/b&gt; Lisbon.')
    expect(page).toContain('<img class="avatar" src="https://cdn.example.com/jane.png"')
    expect(page).toContain(`<link rel="canonical" href="${PUBLIC_URL}/jane-draft">`)
    expect(page).toContain('<base target="_blank">')
    expect(page.indexOf('>Shop</a>')).toBeGreaterThan(0)
    expect(page.indexOf('>Shop</a>')).toBeLessThan(page.indexOf('>Portfolio</a>'))
    expect(page).not.toContain('<script')
  })

  it('matches what visitors get for the same saved page', async () => {
    const draft = { name: 'Same Page', description: 'Same words.', blocks: [{ title: 'One', url: 'https://one.example.com/' }, { title: 'Two', url: 'https://two.example.com/' }] }
    const saved = await createBioPage(context, owner, draft)
    const preview = await api('POST', '/api/bio/preview', { ...draft, alias: saved.alias })
    const visitor = await context.app.inject({ method: 'GET', url: `/${saved.alias}` })
    expect(visitor.statusCode).toBe(200)
    expect(preview.body).toBe(visitor.body.replace('</head>', '<base target="_blank"></head>'))
  })

  it('leaves out what the page could not show yet: blocks without a title or an http(s) URL, a bad avatar', async () => {
    const response = await api('POST', '/api/bio/preview', {
      name: '',
      avatar: 'not a url',
      blocks: [
        { title: '', url: 'https://untitled.example.com/' },
        { title: 'Typing', url: 'https://exam' },
        { title: 'Script', url: 'javascript:alert(1)' },
        { title: 'Half', url: '' },
      ],
    })
    expect(response.statusCode).toBe(200)
    const page = response.body
    expect(page).toContain('>Typing</a>')
    expect(page).not.toContain('untitled.example.com')
    expect(page).not.toContain('javascript:')
    expect(page).not.toContain('>Half</a>')
    expect(page).not.toContain('<img')
  })

  it('stores nothing', async () => {
    const before = await api('GET', '/api/bio?limit=100')
    await api('POST', '/api/bio/preview', { name: 'Not stored', alias: 'not-stored-preview' })
    const after = await api('GET', '/api/bio?limit=100')
    expect(after.data.data.result).toBe(before.data.data.result)
  })

  it('refuses bad input with 400 naming the field, and asks for a key', async () => {
    const tooLong = await api('POST', '/api/bio/preview', { name: 'x'.repeat(101) })
    expect(tooLong.statusCode).toBe(400)
    expect(tooLong.data.message).toContain('"name"')
    const missingName = await api('POST', '/api/bio/preview', {})
    expect(missingName.statusCode).toBe(400)
    const tooMany = await api('POST', '/api/bio/preview', { name: 'Many', blocks: Array.from({ length: 101 }, () => ({ title: 'a', url: 'https://a.example.com/' })) })
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.data.message).toContain('"blocks"')
    const badBlock = await api('POST', '/api/bio/preview', { name: 'Bad', blocks: [{ title: 3 }] })
    expect(badBlock.statusCode).toBe(400)
    const anonymous = await apiClient(context.app, null)('POST', '/api/bio/preview', { name: 'Anyone' })
    expect(anonymous.statusCode).toBe(401)
  })
})
