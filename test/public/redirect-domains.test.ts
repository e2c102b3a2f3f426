// Branded domains: the Host header picks the alias namespace; `/` and unknown aliases follow the
// domain's redirectroot / redirect404, else the 404 page.
import { beforeAll, describe, expect, it } from 'vitest'
import { createBioPage, createDomain, createLink } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'
import { clicksOf, visit } from './redirect-test-support.js'

describe('branded domains', () => {
  const { context, owner } = useTestApp()
  let brandedId: number
  const BRANDED = 'go.brand.test'
  const BARE = 'bare.brand.test'

  beforeAll(async () => {
    brandedId = (await createDomain(context, owner, { domain: `https://${BRANDED}`, redirectroot: 'https://brand.test/home', redirect404: 'https://brand.test/missing' })).id
    await createDomain(context, owner, { domain: `https://${BARE}` })
  })

  // A browser's user agent: inject's own one counts as a bot and would not be recorded.
  const onHost = (host: string, path: string, method: 'GET' | 'HEAD' = 'GET') =>
    visit(context.app, path, { headers: { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' }, method })

  it('redirects / to redirectroot', async () => {
    const response = await onHost(BRANDED, '/')
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('https://brand.test/home')
    expect(response.headers['cache-control']).toBe('private, max-age=0')
  })

  it('matches the Host header without its port and in any case', async () => {
    expect((await onHost('GO.Brand.Test:8080', '/')).headers.location).toBe('https://brand.test/home')
    expect((await onHost(`${BRANDED}.`, '/')).headers.location).toBe('https://brand.test/home')
  })

  it('sends unknown aliases to redirect404', async () => {
    const response = await onHost(BRANDED, '/unknown-alias')
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('https://brand.test/missing')
    expect((await onHost(BRANDED, '/x')).headers.location).toBe('https://brand.test/missing')
  })

  it('answers / and unknown aliases with the 404 page on a domain without redirects', async () => {
    const root = await onHost(BARE, '/')
    expect(root.statusCode).toBe(404)
    expect(root.headers['content-type']).toBe('text/html; charset=utf-8')
    expect((await onHost(BARE, '/unknown-alias')).statusCode).toBe(404)
  })

  it("resolves a domain's aliases on that domain only", async () => {
    const branded = await createLink(context, owner, { domain: brandedId, url: 'https://example.com/branded' })
    const main = await createLink(context, owner, { url: 'https://example.com/main' })

    const onBrand = await onHost(BRANDED, `/${branded.alias}`)
    expect(onBrand.statusCode).toBe(302)
    expect(onBrand.headers.location).toBe('https://example.com/branded')
    expect((await onHost('lw.test', `/${branded.alias}`)).statusCode).toBe(404)
    expect((await onHost(BARE, `/${branded.alias}`)).statusCode).toBe(404)

    expect((await onHost('lw.test', `/${main.alias}`)).headers.location).toBe('https://example.com/main')
    expect((await onHost(BRANDED, `/${main.alias}`)).headers.location).toBe('https://brand.test/missing')

    await context.clicks.flush()
    expect(await clicksOf(context.database.db, 'link', branded.id)).toHaveLength(1)
  })

  it('lets the same alias live on two hosts', async () => {
    const alias = `shared${process.pid}`
    await createLink(context, owner, { custom: alias, url: 'https://example.com/on-main' })
    await createLink(context, owner, { custom: alias, domain: brandedId, url: 'https://example.com/on-brand' })
    expect((await onHost('lw.test', `/${alias}`)).headers.location).toBe('https://example.com/on-main')
    expect((await onHost(BRANDED, `/${alias}`)).headers.location).toBe('https://example.com/on-brand')
  })

  it('serves bio pages on the main host only', async () => {
    const bio = await createBioPage(context, owner)
    expect((await onHost('lw.test', `/${bio.alias}`)).statusCode).toBe(200)
    expect((await onHost(BRANDED, `/${bio.alias}`)).headers.location).toBe('https://brand.test/missing')
  })

  it('serves the main host\'s links on PUBLIC_URL\'s host, localhost and IP literals only (ADR 028)', async () => {
    const main = await createLink(context, owner, { url: 'https://example.com/any-host' })
    for (const host of ['lw.test', 'localhost:3000', '127.0.0.1', '10.0.0.7:8080', '[::1]:3000']) {
      expect((await onHost(host, `/${main.alias}`)).headers.location).toBe('https://example.com/any-host')
    }
    // A domain not (yet) added reaches no link of the main domain's, on either visitor path.
    for (let visit = 0; visit < 2; visit += 1) {
      const unknown = await onHost('not-added.example', `/${main.alias}`)
      expect(unknown.statusCode).toBe(404)
      expect(unknown.headers.location).toBeUndefined()
    }
    expect((await onHost('not-added.example', '/')).headers.location).toBe('/app/')
  })

  it('sends HEAD / on a branded domain the same way', async () => {
    const response = await onHost(BRANDED, '/', 'HEAD')
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('https://brand.test/home')
  })
})
