// GET|HEAD|POST /{alias} on the main host: plain redirects, counting, expiry, passwords, bio
// pages and the 404 page.
import { describe, expect, it } from 'vitest'
import { createBioPage, createLink, insertLinkRow } from '../helpers/factories.js'
import { PUBLIC_URL, useTestApp } from '../helpers/test-app.js'
import { clicksOf, linkClickCount, visit } from './redirect-test-support.js'
import { nowTimestamp } from '../../src/core/time.js'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'

function expectPageHeaders(response: { headers: Record<string, unknown> }) {
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
  expect(response.headers['content-security-policy']).toContain("default-src 'none'")
  expect(response.headers['x-content-type-options']).toBe('nosniff')
}

describe('public redirects on the main host', () => {
  const { context, owner } = useTestApp()

  const db = () => context.database.db

  it('sends / to the dashboard', async () => {
    const response = await visit(context.app, '/')
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('/app/')
  })

  it('redirects a direct link with 302, no shared caching, and counts the click', async () => {
    const link = await createLink(context, owner, { url: 'https://example.com/landing?utm=x' })
    const response = await visit(context.app, `/${link.alias}`, {
      headers: { 'user-agent': BROWSER, referer: 'https://www.facebook.com/some/post', 'accept-language': 'de-DE,de;q=0.9' },
      remoteAddress: '8.8.8.8',
    })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('https://example.com/landing?utm=x')
    expect(response.headers['cache-control']).toBe('private, max-age=0')
    expect(response.body).toBe('')

    await context.clicks.flush()
    const clicks = await clicksOf(db(), 'link', link.id)
    expect(clicks).toHaveLength(1)
    expect(clicks[0]).toMatchObject({ account_id: owner.id, item_type: 'link', item_id: link.id, referrer_host: 'facebook.com', language: 'de', user_agent: null, browser: 'Chrome', os: 'Windows', device: 'desktop' })
    expect(await linkClickCount(db(), link.id)).toBe(1)
  })

  it('percent-encodes a destination with non-ASCII characters', async () => {
    const link = await createLink(context, owner, { url: 'https://例え.jp/中文?q=é' })
    const response = await visit(context.app, `/${link.alias}`)
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('https://xn--r8jz45g.jp/%E4%B8%AD%E6%96%87?q=%C3%A9')
  })

  it('answers HEAD like GET but records nothing', async () => {
    const link = await createLink(context, owner, { url: 'https://example.com/head' })
    const response = await visit(context.app, `/${link.alias}`, { method: 'HEAD', headers: { 'user-agent': BROWSER } })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('https://example.com/head')
    await context.clicks.flush()
    expect(await clicksOf(db(), 'link', link.id)).toHaveLength(0)
    expect(await linkClickCount(db(), link.id)).toBe(0)
  })

  it('redirects bots without counting them', async () => {
    const link = await createLink(context, owner)
    const response = await visit(context.app, `/${link.alias}`, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } })
    expect(response.statusCode).toBe(302)
    await context.clicks.flush()
    expect(await linkClickCount(db(), link.id)).toBe(0)
  })

  it.each(['/nosuchalias', '/ab', '/has.dot', '/docs'])('answers %s with the HTML 404 page', async (path) => {
    const response = await visit(context.app, path)
    expect(response.statusCode).toBe(404)
    expectPageHeaders(response)
    expect(response.body).toContain('Not found')
  })

  it('leaves /api to the API: its key check answers in JSON', async () => {
    const response = await visit(context.app, '/api')
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ error: 1, code: 'invalid_api_key' })
    const post = await visit(context.app, '/api', { form: { password: 'x' } })
    expect(post.statusCode).toBe(401)
    expect(post.headers['content-type']).toMatch(/^application\/json/)
  })

  it('answers other unknown paths with the 404 page, and unknown API paths with the JSON envelope', async () => {
    const unknownDeep = await visit(context.app, '/some/deep/path')
    expect(unknownDeep.statusCode).toBe(404)
    expect(unknownDeep.headers['content-type']).toMatch(/^text\/html/)
    // Without a key the API gate answers first, in the JSON envelope.
    const unknownApi = await visit(context.app, '/api/some/deep/path')
    expect(unknownApi.statusCode).toBe(401)
    expect(unknownApi.json()).toMatchObject({ error: 1 })
  })

  it('finds an alias in any letter case (docs/adr/006-alias-case.md)', async () => {
    const link = await createLink(context, owner, { custom: `MixedCase${process.pid}`, url: 'https://example.com/mixed' })
    expect((await visit(context.app, `/${link.alias}`)).headers.location).toBe('https://example.com/mixed')
    expect((await visit(context.app, `/${link.alias.toLowerCase()}`)).headers.location).toBe('https://example.com/mixed')
    expect((await visit(context.app, `/${link.alias.toUpperCase()}`)).statusCode).toBe(302)
  })

  it('answers an expired link with the 410 page and counts nothing', async () => {
    const link = await insertLinkRow(db(), owner.id, { expires_at: '2020-01-01 00:00:00' })
    const response = await visit(context.app, `/${link.alias}`)
    expect(response.statusCode).toBe(410)
    expectPageHeaders(response)
    expect(response.body).toContain('This link has expired')
    const post = await visit(context.app, `/${link.alias}`, { form: { password: 'x' } })
    expect(post.statusCode).toBe(410)
    await context.clicks.flush()
    expect(await clicksOf(db(), 'link', link.id)).toHaveLength(0)
  })

  it('serves a link whose expiry is still ahead', async () => {
    const tomorrow = nowTimestamp(new Date(Date.now() + 86_400_000))
    const link = await createLink(context, owner, { expiry: tomorrow, url: 'https://example.com/still' })
    expect((await visit(context.app, `/${link.alias}`)).headers.location).toBe('https://example.com/still')
  })

  describe('password-protected links', () => {
    // Each test its own link: the click counts of one must not depend on what another visited.
    const protectedLink = async () => {
      const link = await createLink(context, owner, { url: 'https://example.com/secret', password: 'open sesame' })
      return { alias: link.alias, linkId: link.id }
    }

    it('shows the form on GET and HEAD, counting nothing', async () => {
      const { alias, linkId } = await protectedLink()
      const response = await visit(context.app, `/${alias}`, { headers: { 'user-agent': BROWSER } })
      expect(response.statusCode).toBe(200)
      expectPageHeaders(response)
      expect(response.body).toContain(`<form method="post" action="/${alias}">`)
      expect(response.body).toContain('name="password"')
      expect((await visit(context.app, `/${alias}`, { method: 'HEAD' })).statusCode).toBe(200)
      await context.clicks.flush()
      expect(await clicksOf(db(), 'link', linkId)).toHaveLength(0)
    })

    it('answers a wrong or missing password with the form again and 401', async () => {
      const { alias } = await protectedLink()
      const wrong = await visit(context.app, `/${alias}`, { form: { password: 'guess' } })
      expect(wrong.statusCode).toBe(401)
      expectPageHeaders(wrong)
      expect(wrong.body).toContain('The password is incorrect')
      expect(wrong.body).toContain('name="password"')
      expect((await visit(context.app, `/${alias}`, { form: { other: 'field' } })).statusCode).toBe(401)
      expect((await visit(context.app, `/${alias}`, { form: { password: 'x'.repeat(1001) } })).statusCode).toBe(401)
    })

    it('redirects on the right password and counts that visit', async () => {
      const { alias, linkId } = await protectedLink()
      const response = await visit(context.app, `/${alias}`, { form: { password: 'open sesame' }, headers: { 'user-agent': BROWSER } })
      expect(response.statusCode).toBe(302)
      expect(response.headers.location).toBe('https://example.com/secret')
      await context.clicks.flush()
      expect(await clicksOf(db(), 'link', linkId)).toHaveLength(1)
      expect(await linkClickCount(db(), linkId)).toBe(1)
    })

    it('treats a stored hash of an unknown form as matching nothing', async () => {
      const odd = await insertLinkRow(db(), owner.id, { password_hash: 'md5$abc' })
      expect((await visit(context.app, `/${odd.alias}`, { form: { password: 'abc' } })).statusCode).toBe(401)
      const empty = await insertLinkRow(db(), owner.id, { password_hash: 'scrypt$c2FsdA$' })
      expect((await visit(context.app, `/${empty.alias}`, { form: { password: 'abc' } })).statusCode).toBe(401)
    })

    it('answers bodies that are not small web forms with an HTML page, never JSON or 500', async () => {
      const { alias } = await protectedLink()
      const tooLarge = await visit(context.app, `/${alias}`, { form: { password: 'p'.repeat(5000) } })
      expect(tooLarge.statusCode).toBe(413)
      expectPageHeaders(tooLarge)
      const wrongType = await visit(context.app, `/${alias}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, payload: 'password=open' })
      expect(wrongType.statusCode).toBe(415)
      expectPageHeaders(wrongType)
      // From an address of its own: the earlier tests used up this one's five wrong guesses.
      const garbage = await visit(context.app, `/${alias}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '%%%&&&==', remoteAddress: '10.3.0.1' })
      expect(garbage.statusCode).toBe(401)
    })
  })

  it('shows a bio page at its alias and counts the visit as `bio`', async () => {
    const bio = await createBioPage(context, owner, { name: '<script>alert(1)</script> Ada', blocks: [{ title: 'Portfolio', url: 'https://ada.example.com/' }] })
    const response = await visit(context.app, `/${bio.alias}`, { headers: { 'user-agent': BROWSER } })
    expect(response.statusCode).toBe(200)
    expectPageHeaders(response)
    expect(response.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Ada')
    expect(response.body).not.toContain('<script>alert(1)')
    expect(response.body).toContain('href="https://ada.example.com/"')
    expect(response.body).toContain(`${PUBLIC_URL}/${bio.alias}`)
    expect((await visit(context.app, `/${bio.alias}`, { method: 'HEAD' })).statusCode).toBe(200)
    await context.clicks.flush()
    const clicks = await clicksOf(db(), 'bio', bio.id)
    expect(clicks).toHaveLength(1)
    expect(clicks[0]!.account_id).toBe(owner.id)
  })

  it('prefers a link over a bio page with the same alias (one read finds the link)', async () => {
    // The shared alias namespace refuses this pair: only a direct write (or an older version) makes it.
    const bio = await createBioPage(context, owner)
    await insertLinkRow(db(), owner.id, { alias: bio.alias, url: 'https://example.com/link-wins' })
    expect((await visit(context.app, `/${bio.alias}`)).headers.location).toBe('https://example.com/link-wins')
  })
})
