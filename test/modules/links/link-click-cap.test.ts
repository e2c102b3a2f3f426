// Click caps and the expired link's fallback (issue 23) through the API and the visitors' route,
// on both databases: exactly `clicklimit` recorded clicks reach the destination on one instance,
// then visitors go to `expiredurl` (or see the expired page); bots and HEAD requests use no click.
import { describe, expect, it } from 'vitest'
import { insertLinkRow } from '../../helpers/factories.js'
import { useTestApp } from '../../helpers/test-app.js'
import { linkClickCount, visit } from '../../public/redirect-test-support.js'

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

describe('click caps and the fallback address', () => {
  const { context, owner, api } = useTestApp()

  async function answer(alias: string, headers: Record<string, string> = { 'user-agent': BROWSER }, method: 'GET' | 'HEAD' = 'GET') {
    const response = await visit(context.app, `/${alias}`, { headers, method })
    return { status: response.statusCode, location: response.headers.location as string | undefined }
  }

  const aliasOf = (shorturl: string) => shorturl.split('/').pop()!

  it('sends exactly `clicklimit` people to the destination, then everyone to the fallback', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/offer', clicklimit: 3, expiredurl: 'https://example.com/sold-out', utm: { source: 'mail' } })
    expect(created.statusCode).toBe(201)
    const alias = aliasOf(created.data.shorturl)
    // Neither a bot nor a HEAD request uses a click.
    expect(await answer(alias, { 'user-agent': GOOGLEBOT })).toEqual({ status: 302, location: 'https://example.com/offer?utm_source=mail' })
    expect(await answer(alias, { 'user-agent': BROWSER }, 'HEAD')).toEqual({ status: 302, location: 'https://example.com/offer?utm_source=mail' })
    const answers = await Promise.all(Array.from({ length: 6 }, () => answer(alias)))
    expect(answers.filter((entry) => entry.location === 'https://example.com/offer?utm_source=mail')).toHaveLength(3)
    expect(answers.filter((entry) => entry.location === 'https://example.com/sold-out')).toHaveLength(3)
    // The fallback carries no UTM parameters and counts no click; bots are sent there too now.
    expect(await answer(alias, { 'user-agent': GOOGLEBOT })).toEqual({ status: 302, location: 'https://example.com/sold-out' })
    await context.clicks.flush()
    expect(await linkClickCount(context.database.db, created.data.id)).toBe(3)
    expect(await answer(alias)).toEqual({ status: 302, location: 'https://example.com/sold-out' })

    const read = await api('GET', `/api/url/${created.data.id}`)
    expect(read.data.details).toMatchObject({ clicklimit: 3, expiredurl: 'https://example.com/sold-out', clicks: 3 })
  })

  it('shows the expired page without a fallback, and lets visitors through again when the limit is raised or removed', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/once', clicklimit: 1 })
    const alias = aliasOf(created.data.shorturl)
    expect(await answer(alias)).toEqual({ status: 302, location: 'https://example.com/once' })
    expect((await answer(alias)).status).toBe(410)
    await api('PUT', `/api/url/${created.data.id}/update`, { clicklimit: 2 })
    expect(await answer(alias)).toEqual({ status: 302, location: 'https://example.com/once' })
    expect((await answer(alias)).status).toBe(410)
    // null leaves the limit as it is (ADR 013): still used up.
    await api('PUT', `/api/url/${created.data.id}/update`, { clicklimit: null })
    expect((await answer(alias)).status).toBe(410)
    await api('PUT', `/api/url/${created.data.id}/update`, { clicklimit: '' })
    expect(await answer(alias)).toEqual({ status: 302, location: 'https://example.com/once' })
    expect((await api('GET', `/api/url/${created.data.id}`)).data.details).toMatchObject({ clicklimit: null, expiredurl: null })
  })

  it('counts the clicks recorded before (another process, an earlier start) against the cap', async () => {
    const link = await insertLinkRow(context.database.db, owner.id, { url: 'https://example.com/full', clicks: 5, options: JSON.stringify({ clicklimit: 5, expiredurl: 'https://example.com/next' }) })
    expect(await answer(link.alias)).toEqual({ status: 302, location: 'https://example.com/next' })
  })

  it('sends visitors of a link expired by date to the fallback too, and of a password-protected one after the cap', async () => {
    const link = await insertLinkRow(context.database.db, owner.id, { expires_at: '2000-01-01 00:00:00', options: JSON.stringify({ expiredurl: 'https://example.com/over' }) })
    expect(await answer(link.alias)).toEqual({ status: 302, location: 'https://example.com/over' })
    const posted = await visit(context.app, `/${link.alias}`, { form: { password: 'x' }, headers: { 'user-agent': BROWSER } })
    expect(posted.statusCode).toBe(302)
    expect(posted.headers.location).toBe('https://example.com/over')

    const locked = await api('POST', '/api/url/add', { url: 'https://example.com/secret', password: 'open sesame', clicklimit: 1, expiredurl: 'https://example.com/gone' })
    const alias = aliasOf(locked.data.shorturl)
    const first = await visit(context.app, `/${alias}`, { form: { password: 'open sesame' }, headers: { 'user-agent': BROWSER } })
    expect(first.headers.location).toBe('https://example.com/secret')
    const second = await visit(context.app, `/${alias}`, { form: { password: 'open sesame' }, headers: { 'user-agent': BROWSER } })
    expect(second.headers.location).toBe('https://example.com/gone')
  })

  it('keeps the other options when only one is changed, and removes the fallback with "" (null leaves it)', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/', clicklimit: 10, expiredurl: 'https://example.com/after', utm: { medium: 'qr' } })
    const { id } = created.data
    await api('PUT', `/api/url/${id}/update`, { expiredurl: '' })
    expect((await api('GET', `/api/url/${id}`)).data.details).toMatchObject({ clicklimit: 10, expiredurl: null, utm: { medium: 'qr' } })
    await api('PUT', `/api/url/${id}/update`, { expiredurl: 'https://example.com/later' })
    await api('PUT', `/api/url/${id}/update`, { expiredurl: null })
    expect((await api('GET', `/api/url/${id}`)).data.details.expiredurl).toBe('https://example.com/later')
    await api('PUT', `/api/url/${id}/update`, { expiredurl: '' })
    expect((await api('GET', `/api/url/${id}`)).data.details.expiredurl).toBeNull()
  })

  it.each([
    ['a clicklimit of 0', { clicklimit: 0 }, 'clicklimit'],
    ['a clicklimit above 10^9', { clicklimit: 1_000_000_001 }, 'clicklimit'],
    ['a clicklimit that is no whole number', { clicklimit: 2.5 }, 'clicklimit'],
    ['a clicklimit given as text', { clicklimit: '10' }, 'clicklimit'],
    ['a negative clicklimit', { clicklimit: -1 }, 'clicklimit'],
    ['an expiredurl of another scheme', { expiredurl: 'javascript:alert(1)' }, 'expiredurl'],
    ['an expiredurl without a host', { expiredurl: 'https://' }, 'expiredurl'],
  ])('refuses %s with a 400 naming the field, on create and update', async (_case, fields, field) => {
    const create = await api('POST', '/api/url/add', { url: 'https://example.com/', ...fields })
    expect(create.statusCode).toBe(400)
    expect(create.data).toMatchObject({ error: 1, code: 'validation_failed', field })
    const link = await api('POST', '/api/url/add', { url: 'https://example.com/' })
    const update = await api('PUT', `/api/url/${link.data.id}/update`, fields)
    expect(update.statusCode).toBe(400)
    expect(update.data).toMatchObject({ error: 1, code: 'validation_failed', field })
  })

  it('accepts the largest clicklimit', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/', clicklimit: 1_000_000_000 })
    expect(created.statusCode).toBe(201)
  })
})
