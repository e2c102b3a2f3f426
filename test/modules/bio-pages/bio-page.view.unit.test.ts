// The public bio page renderer, through a throwaway route (the catch-all `/:alias` is wired elsewhere).
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BioPageRow } from '../../../src/db/schema.js'
import { DEFAULT_CSP } from '../../../src/public/html.js'
import { sendBioPage } from '../../../src/public/bio-page.view.js'

const PUBLIC_URL = 'https://lw.test'

function bioRow(overrides: Partial<BioPageRow> = {}): BioPageRow {
  return {
    id: 1,
    account_id: 1,
    alias: 'jane',
    name: 'Jane Doe',
    description: 'Designer in Lisbon.',
    avatar: 'https://cdn.example.com/jane.png',
    blocks: JSON.stringify([
      { title: 'Portfolio', url: 'https://jane.example.com/' },
      { title: 'Shop', url: 'http://shop.example.com/?a=1&b=2' },
      { title: 'Blog', url: 'https://blog.example.com/' },
    ]),
    created_at: '2026-01-01 00:00:00',
    updated_at: '2026-01-01 00:00:00',
    ...overrides,
  }
}

describe('bio page view', () => {
  let app: FastifyInstance
  let current: BioPageRow

  beforeAll(async () => {
    app = Fastify({ logger: false })
    app.get('/page', async (_request, reply) => sendBioPage(reply, current, { publicUrl: PUBLIC_URL }))
    await app.ready()
  })
  afterAll(() => app.close())

  async function render(row: BioPageRow) {
    current = row
    return app.inject({ method: 'GET', url: '/page' })
  }

  it('renders avatar, name, description and the blocks in order, under the strict policy', async () => {
    const response = await render(bioRow())
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['content-security-policy']).toBe(DEFAULT_CSP)
    expect(response.headers['content-security-policy']).toContain("default-src 'none'")
    const body = response.body
    expect(body).toContain('<img class="avatar" src="https://cdn.example.com/jane.png"')
    expect(body).toContain('<h1>Jane Doe</h1>')
    expect(body).toContain('<title>Jane Doe</title>')
    expect(body).toContain('<p class="description">Designer in Lisbon.</p>')
    expect(body).toContain('<link rel="canonical" href="https://lw.test/jane">')
    expect(body).toContain('<a class="button" href="http://shop.example.com/?a=1&amp;b=2" rel="noopener nofollow">Shop</a>')
    const order = ['Portfolio', 'Shop', 'Blog'].map((title) => body.indexOf(`>${title}</a>`))
    expect(order.every((position) => position > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(body.match(/rel="noopener nofollow"/g)).toHaveLength(3)
    expect(body).not.toContain('<script')
  })

  it('escapes markup in the name, the description and block titles and URLs', async () => {
    const response = await render(
      bioRow({
        name: '<script>alert("name")</script>',
        description: '<script>alert(1)</script><img src=x onerror=alert(2)>',
        avatar: 'https://cdn.example.com/a.png?"><script>alert(3)</script>',
        blocks: JSON.stringify([{ title: '<script>alert(4)</script>', url: 'https://example.com/?q="><script>alert(5)</script>' }]),
      }),
    )
    const body = response.body
    expect(body).not.toContain('<script')
    expect(body).not.toContain('<img src=x')
    expect(body).toContain('<h1>&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;</h1>')
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;')
    expect(body).toContain('>&lt;script&gt;alert(4)&lt;/script&gt;</a>')
    expect(body).toContain('href="https://example.com/?q=&quot;&gt;&lt;script&gt;alert(5)&lt;/script&gt;"')
  })

  it('never emits a block or avatar URL that is not http(s)', async () => {
    const response = await render(
      bioRow({
        avatar: 'javascript:alert(1)',
        blocks: JSON.stringify([
          { title: 'Bad js', url: 'javascript:alert(1)' },
          { title: 'Bad js upper', url: 'JAVASCRIPT:alert(1)' },
          { title: 'Bad data', url: 'data:text/html,<b>hi</b>' },
          { title: 'Bad relative', url: '//evil.example/' },
          { title: 'Good', url: 'https://good.example/' },
          { title: 'Not a block', href: 'https://x.example/' },
          'https://string.example/',
        ]),
      }),
    )
    const body = response.body
    expect(body.toLowerCase()).not.toContain('javascript:')
    expect(body).not.toContain('data:text')
    expect(body).not.toContain('evil.example')
    expect(body).not.toContain('<img')
    expect(body).not.toContain('Bad ')
    expect(body.match(/<a /g)).toHaveLength(1)
    expect(body).toContain('href="https://good.example/"')
  })

  it('leaves out the avatar, description and list when there are none, and survives unreadable blocks', async () => {
    const response = await render(bioRow({ avatar: null, description: '', blocks: 'not json' }))
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('<h1>Jane Doe</h1>')
    expect(response.body).not.toContain('<img')
    expect(response.body).not.toContain('class="description"')
    expect(response.body).not.toContain('<ul')
    expect(response.body).not.toContain('name="description"')
  })
})
