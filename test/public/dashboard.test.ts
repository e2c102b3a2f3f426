// The dashboard at /app/ on the main host: the built files with their cache rules, the SPA
// fallback, a clear page when it is not built, `/` sending people there, and `app` reserved.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiClient, createAccount, createTestApp, useTestApp, type TestContext } from '../helpers/test-app.js'
import { createDomain } from '../helpers/factories.js'

const INDEX = '<!doctype html><html><head><script type="module" src="/app/assets/index-Bx7a9k2Q.js"></script></head><body><div id="root"></div></body></html>'

describe('the built dashboard', () => {
  let context: TestContext
  let folder: string

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-dashboard-'))
    fs.mkdirSync(path.join(folder, 'assets'))
    fs.writeFileSync(path.join(folder, 'index.html'), INDEX)
    fs.writeFileSync(path.join(folder, 'assets', 'index-Bx7a9k2Q.js'), 'console.log("dashboard")')
    fs.writeFileSync(path.join(folder, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    context = await createTestApp({ env: { DASHBOARD_DIR: folder } })
    const owner = await createAccount(context)
    await createDomain(context, owner, { domain: 'https://go.brand.test', redirectroot: 'https://brand.test/home' })
  })
  afterAll(async () => {
    await context.close()
    fs.rmSync(folder, { recursive: true, force: true })
  })

  const get = (url: string, headers: Record<string, string> = {}) => context.app.inject({ method: 'GET', url, headers })

  it.each(['/app/', '/app'])('serves index.html at %s, revalidated on every load, under a strict policy', async (url) => {
    const response = await get(url)
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(INDEX)
    expect(response.headers['content-type']).toContain('text/html')
    expect(response.headers['cache-control']).toBe('no-cache')
    expect(response.headers['content-security-policy']).toContain("script-src 'self'")
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    // The QR designer shows the preview it fetched as a blob: URL; scripts may still not come from blobs.
    expect(response.headers['content-security-policy']).toMatch(/img-src [^;]*blob:/)
    expect(response.headers['content-security-policy']).not.toMatch(/script-src [^;]*blob:/)
    expect(response.headers['x-content-type-options']).toBe('nosniff')
  })

  it('caches hashed assets for a year, and other files not at all', async () => {
    const asset = await get('/app/assets/index-Bx7a9k2Q.js')
    expect(asset.statusCode).toBe(200)
    expect(asset.body).toBe('console.log("dashboard")')
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(asset.headers['content-type']).toContain('javascript')
    const icon = await get('/app/favicon.svg')
    expect(icon.statusCode).toBe(200)
    expect(icon.headers['cache-control']).toBe('no-cache')
  })

  it.each(['/app/links', '/app/links/42/stats', '/app/account?tab=keys', '/app/sign-in'])('answers the router\'s page %s with index.html', async (url) => {
    const response = await get(url)
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(INDEX)
    expect(response.headers['cache-control']).toBe('no-cache')
    expect(response.headers['content-security-policy']).toContain("default-src 'self'")
  })

  it('answers a missing file with 404, not with index.html', async () => {
    for (const url of ['/app/assets/index-gone.js', '/app/missing.css', '/app/../package.json', '/app/%2e%2e/package.json']) {
      const response = await get(url)
      expect(response.statusCode, url).toBe(404)
      expect(response.body).not.toBe(INDEX)
      expect(response.body).not.toContain('"name": "linkwell"')
    }
  })

  it('answers methods other than GET under /app/ with 404', async () => {
    const response = await context.app.inject({ method: 'POST', url: '/app/links', payload: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(response.statusCode).toBe(404)
  })

  it('redirects / on the main host to /app/, while a branded domain keeps its redirectroot and has no dashboard', async () => {
    const root = await get('/')
    expect(root.statusCode).toBe(302)
    expect(root.headers.location).toBe('/app/')
    const branded = await get('/', { host: 'go.brand.test' })
    expect(branded.headers.location).toBe('https://brand.test/home')
    const brandedApp = await get('/app/', { host: 'go.brand.test' })
    expect(brandedApp.statusCode).toBe(404)
    expect(brandedApp.body).not.toBe(INDEX)
  })
})

describe('without a built dashboard', () => {
  const { context } = useTestApp({ env: { DASHBOARD_DIR: path.join(os.tmpdir(), 'linkwell-no-dashboard-here') } })

  it.each(['/app/', '/app', '/app/links/42', '/app/assets/index.js'])('answers %s with a page saying it is not built', async (url) => {
    const response = await context.app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(503)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.body).toContain('The dashboard is not built')
    expect(response.body).toContain('npm run build')
  })

  it('still answers the API', async () => {
    const account = await createAccount(context)
    expect((await apiClient(context.app, account.apiKey)('GET', '/api/account')).statusCode).toBe(200)
  })
})

describe('the alias `app`', () => {
  const { api } = useTestApp()

  it.each(['app', 'APP'])('is refused as a custom alias (%s)', async (custom) => {
    const response = await api('POST', '/api/url/add', { url: 'https://example.com/', custom })
    expect(response.statusCode).toBe(400)
    expect(response.data.error).toBe(1)
  })
})
