// Changes made through the API reach visitors at once: every module that changes something a
// cached public page embeds announces it (cache/topics.ts), and the caches drop their copies.
import { describe, expect, it } from 'vitest'
import { createAccount } from '../helpers/factories.js'
import { apiClient, useTestApp } from '../helpers/test-app.js'

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'

describe('API changes reach the public side at once', () => {
  const { context, api } = useTestApp()
  const visit = (url: string, host = 'lw.test') => context.app.inject({ method: 'GET', url, headers: { host, 'user-agent': BROWSER } })

  it('a branded domain’s new root redirect is served right after the update', async () => {
    const added = await api('POST', '/api/domain/add', { domain: 'https://go.brand-one.test', redirectroot: 'https://brand-one.test/old' })
    expect(added.statusCode).toBe(201)
    expect((await visit('/', 'go.brand-one.test')).headers.location).toBe('https://brand-one.test/old')
    await api('PUT', `/api/domain/${added.data.id}/update`, { redirectroot: 'https://brand-one.test/new' })
    expect((await visit('/', 'go.brand-one.test')).headers.location).toBe('https://brand-one.test/new')
    await api('DELETE', `/api/domain/${added.data.id}/delete`)
    // No longer a branded domain: the host is served like the main one.
    expect((await visit('/', 'go.brand-one.test')).headers.location).not.toContain('brand-one.test')
  })

  it('an overlay’s new message shows on its links right after the update', async () => {
    const overlay = await api('POST', '/api/overlay/add', { type: 'message', name: 'Promo', message: 'First message' })
    const link = await api('POST', '/api/url/add', { url: 'https://example.com/landing', type: `overlay-${overlay.data.id}` })
    expect(link.statusCode).toBe(201)
    const alias = new URL(link.data.shorturl).pathname.slice(1)
    expect((await visit(`/${alias}`)).body).toContain('First message')
    await api('PUT', `/api/overlay/${overlay.data.id}/update`, { message: 'Second message' })
    const page = (await visit(`/${alias}`)).body
    expect(page).toContain('Second message')
    expect(page).not.toContain('First message')
  })

  it('a link assigned to a campaign joins its rotator right away', async () => {
    const campaign = await api('POST', '/api/campaign/add', { name: 'Rotating', slug: `rot-${process.pid}` })
    const first = await api('POST', '/api/url/add', { url: 'https://example.com/one' })
    await api('POST', `/api/campaign/${campaign.data.id}/assign/${first.data.id}`)
    expect((await visit(`/r/rot-${process.pid}`)).headers.location).toBe('https://example.com/one')
    const second = await api('POST', '/api/url/add', { url: 'https://example.com/two' })
    await api('POST', `/api/campaign/${campaign.data.id}/assign/${second.data.id}`)
    const targets = new Set<string>()
    for (let i = 0; i < 4; i += 1) targets.add(String((await visit(`/r/rot-${process.pid}`)).headers.location))
    expect(targets).toEqual(new Set(['https://example.com/one', 'https://example.com/two']))
  })

  it('a deleted account’s cached link and rotator stop being served at once', async () => {
    const admin = await createAccount(context, { isAdmin: true })
    const owner = await createAccount(context)
    const ownerApi = apiClient(context.app, owner.apiKey)
    const slug = `gone-${process.pid}`
    const campaign = await ownerApi('POST', '/api/campaign/add', { name: 'Going away', slug })
    expect(campaign.statusCode).toBe(201)
    const created = await ownerApi('POST', '/api/url/add', { url: 'https://gone.example/page', campaign: campaign.data.id })
    expect(created.statusCode).toBe(201)
    const alias = new URL(created.data.shorturl).pathname.slice(1)

    expect((await visit(`/${alias}`)).statusCode).toBe(302)
    expect((await visit(`/r/${slug}`)).statusCode).toBe(302)

    const deleted = await apiClient(context.app, admin.apiKey)('DELETE', `/api/user/${owner.id}/delete`)
    expect(deleted.statusCode).toBe(200)

    expect((await visit(`/${alias}`)).statusCode).toBe(404)
    expect((await visit(`/r/${slug}`)).statusCode).toBe(404)
  })
})
