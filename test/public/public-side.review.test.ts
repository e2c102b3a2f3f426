// Review findings on the public side: account deletion reaching cached aliases and rotations,
// and the public campaign page not revealing where a password-protected link goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiClient, createAccount, createTestApp, type TestContext } from '../helpers/test-app.js'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'

let context: TestContext

beforeAll(async () => {
  context = await createTestApp()
})

afterAll(async () => {
  await context.close()
})

function visit(url: string) {
  return context.app.inject({ method: 'GET', url, headers: { 'user-agent': BROWSER } })
}

describe('review: public side', () => {
  it('stops serving a deleted account\'s cached link and rotator at once', async () => {
    const admin = await createAccount(context, { isAdmin: true })
    const owner = await createAccount(context)
    const api = apiClient(context.app, owner.apiKey)
    const slug = `rv${Date.now()}`
    const campaign = await api('POST', '/api/campaign/add', { name: 'Review', slug })
    expect(campaign.statusCode).toBe(201)
    const created = await api('POST', '/api/url/add', { url: 'https://gone.example/page', campaign: campaign.data.id })
    expect(created.statusCode).toBe(201)
    const alias = String(created.data.shorturl).split('/').pop()!

    expect((await visit(`/${alias}`)).statusCode).toBe(302)
    expect((await visit(`/r/${slug}`)).statusCode).toBe(302)

    const deleted = await apiClient(context.app, admin.apiKey)('DELETE', `/api/user/${owner.id}/delete`)
    expect(deleted.statusCode).toBe(200)

    expect((await visit(`/${alias}`)).statusCode).toBe(404)
    expect((await visit(`/r/${slug}`)).statusCode).toBe(404)
  })

  it('does not show the destination of a password-protected link on the public campaign page', async () => {
    const owner = await createAccount(context)
    const api = apiClient(context.app, owner.apiKey)
    const campaign = await api('POST', '/api/campaign/add', { name: 'Public list', slug: `pl${Date.now()}`, public: true })
    expect(campaign.statusCode).toBe(201)
    const created = await api('POST', '/api/url/add', { url: 'https://hidden.example/secret-path', password: 'letmein1', campaign: campaign.data.id })
    expect(created.statusCode).toBe(201)

    const page = await visit(new URL(campaign.data.list).pathname)
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain(created.data.shorturl)
    expect(page.body).not.toContain('hidden.example')
  })
})
