// The dashboard's domain endpoints: the DNS records to create, a DNS check before adding (with the
// resolver the add check uses, injected here: no real DNS), and the single read.
import { describe, expect, it } from 'vitest'
import type { HostRecords } from '../../../src/modules/domains/domain-dns.js'
import { useTestApp } from '../../helpers/test-app.js'
import { createDomain } from '../../helpers/factories.js'

const ZONE: Record<string, HostRecords> = {
  'go.pointing.example': { addresses: ['203.0.113.7'], cnames: [] },
  'links.cname.example': { addresses: ['198.51.100.9'], cnames: ['edge.linkwell.example.'] },
  'elsewhere.example': { addresses: ['192.0.2.50'], cnames: [] },
}

/** Every name looked up, in order: the check must not ask DNS twice for the same answer. */
const lookedUp: string[] = []
const fakeResolver = async (hostname: string): Promise<HostRecords> => {
  lookedUp.push(hostname)
  return ZONE[hostname] ?? { addresses: [], cnames: [] }
}

describe('domain setup and DNS check with SERVER_IPS and SERVER_CNAME set', () => {
  const { api } = useTestApp({ env: { SERVER_IPS: '203.0.113.7,2001:db8::7', SERVER_CNAME: 'edge.linkwell.example' }, resolveHost: fakeResolver })

  it('GET /api/domains/setup lists the records to create', async () => {
    const response = await api('GET', '/api/domains/setup')
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({ error: 0, data: { checked: true, ips: ['203.0.113.7', '2001:db8::7'], cname: 'edge.linkwell.example' } })
  })

  it.each([
    ['https://go.pointing.example', { hostname: 'go.pointing.example', addresses: ['203.0.113.7'], cnames: [], pointing: true }],
    ['https://Links.Cname.example/', { hostname: 'links.cname.example', addresses: ['198.51.100.9'], cnames: ['edge.linkwell.example.'], pointing: true }],
    ['http://elsewhere.example', { hostname: 'elsewhere.example', addresses: ['192.0.2.50'], cnames: [], pointing: false }],
    ['https://unknown.example', { hostname: 'unknown.example', addresses: [], cnames: [], pointing: false }],
  ])('GET /api/domains/dns?domain=%s says what it resolves to and whether add would pass', async (domain, expected) => {
    const response = await api('GET', `/api/domains/dns?domain=${encodeURIComponent(domain)}`)
    expect(response.statusCode).toBe(200)
    expect(response.data).toEqual({ error: 0, data: expected })
  })

  it('looks the name up once for both the records shown and the verdict', async () => {
    lookedUp.length = 0
    expect((await api('GET', '/api/domains/dns?domain=https://go.pointing.example')).data.data.pointing).toBe(true)
    expect(lookedUp).toEqual(['go.pointing.example'])
  })

  it('agrees with add: a domain the check calls not pointing is refused, a pointing one is added', async () => {
    expect((await api('POST', '/api/domain/add', { domain: 'http://elsewhere.example' })).statusCode).toBe(400)
    expect((await api('POST', '/api/domain/add', { domain: 'https://go.pointing.example' })).statusCode).toBe(201)
  })

  it.each([
    ['', 'The query parameter "domain" is required.'],
    ['?domain=go.example.com', 'must be an http or https address like https://go.example.com'],
    ['?domain=https://go.example.com/path', 'must be a domain only, without a path, query or fragment'],
    ['?domain=https://203.0.113.7', 'must be a domain name, not an IP address'],
  ])('answers 400 for a bad domain (%s)', async (query, message) => {
    const response = await api('GET', `/api/domains/dns${query}`)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, message: expect.stringContaining(message) })
  })
})

describe('domain setup and DNS check without server addresses', () => {
  const { context, owner, api, otherApi } = useTestApp({ resolveHost: fakeResolver })

  it('says the check is skipped', async () => {
    expect((await api('GET', '/api/domains/setup')).data).toEqual({ error: 0, data: { checked: false, ips: [], cname: null } })
  })

  it('still shows the records, with pointing null: there is nothing to compare with', async () => {
    const response = await api('GET', '/api/domains/dns?domain=https://elsewhere.example')
    expect(response.data).toEqual({ error: 0, data: { hostname: 'elsewhere.example', addresses: ['192.0.2.50'], cnames: [], pointing: null } })
  })

  it('GET /api/domain/{id} answers the domain; another account\'s or an unknown id is 404', async () => {
    const domain = await createDomain(context, owner, { domain: 'https://read.brand.example', redirectroot: 'https://www.brand.example/' })
    const response = await api('GET', `/api/domain/${domain.id}`)
    expect(response.statusCode).toBe(200)
    expect(response.data).toMatchObject({ error: 0, data: { id: domain.id, domain: 'https://read.brand.example', redirectroot: 'https://www.brand.example/', redirect404: null, status: 'pending', certificate: { status: 'none' } } })
    for (const [client, url] of [[otherApi, `/api/domain/${domain.id}`], [api, '/api/domain/999999']] as const) {
      const missing = await client('GET', url)
      expect(missing.statusCode).toBe(404)
      expect(missing.data).toEqual({ error: 1, message: expect.stringContaining('Domain not found'), code: 'not_found' })
    }
    expect((await api('GET', '/api/domain/abc')).statusCode).toBe(400)
  })

  it('needs a key', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/domains/setup' })
    expect(response.statusCode).toBe(401)
  })
})
