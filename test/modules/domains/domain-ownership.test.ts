// Proof of control of a branded domain (issue 43, ADR 031), against a DNS server of the test's own
// (pebble-challtestsrv on loopback, DNS_SERVERS): the record to create, checks on demand and on
// the background schedule, one proven owner per name, released claims, what routing serves, and
// `/tls/allowed`. On SQLite and PostgreSQL.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPebble, startTestDns, type TestDns } from '../../helpers/acme-servers.js'
import { apiClient, createAccount, createTestApp, useTestApp, type ApiClient, type TestContext } from '../../helpers/test-app.js'
import { frontDoorOf } from '../../../src/app.js'
import { nowTimestamp } from '../../../src/core/time.js'
import { createDnsClient } from '../../../src/modules/domains/domain-dns.js'

let hostCounter = 0
/** A fresh hostname per test. */
function uniqueHost(): string {
  hostCounter += 1
  return `go${hostCounter}.brand.test`
}

describe.skipIf(!hasPebble)('proof of control of branded domains', () => {
  let dns: TestDns
  let context: TestContext
  let api: ApiClient
  let otherApi: ApiClient
  // The schedule's clock, moved by hand (whole seconds: stored times have no fraction).
  let now = new Date(Math.floor(Date.now() / 1000) * 1000)
  // The app listens too: the HTTP proof fetches the challenge back over the domain, which the test DNS points at 127.0.0.1.
  let server: http.Server
  let serverPort: number

  beforeAll(async () => {
    dns = await startTestDns()
    server = http.createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    serverPort = (server.address() as AddressInfo).port
    context = await createTestApp({
      // The background checks wait an hour between rounds: the tests run the rounds themselves.
      env: { DNS_SERVERS: dns.server, SERVER_IPS: '127.0.0.1', HTTP_PORT: String(serverPort), DOMAIN_CHECK_POLL_SECONDS: '3600' },
      domainClock: () => now,
    })
    server.on('request', frontDoorOf(context.app).frontDoor)
    api = apiClient(context.app, (await createAccount(context)).apiKey)
    otherApi = apiClient(context.app, (await createAccount(context)).apiKey)
  })
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
    await context?.close()
    await dns?.stop()
  })

  async function add(client: ApiClient, host: string) {
    const answer = await client('POST', '/api/domain/add', { domain: `https://${host}` })
    expect(answer.statusCode, JSON.stringify(answer.data)).toBe(201)
    return answer.data as { id: number; status: string; verification: { name: string; value: string } }
  }

  async function record(client: ApiClient, id: number) {
    return (await client('GET', `/api/domain/${id}`)).data.data
  }

  it('answers the record to create on add, and every read shows the state, the finding in words and the certificate', async () => {
    const host = uniqueHost()
    const added = await add(api, host)
    expect(added).toEqual({
      error: 0,
      id: expect.any(Number),
      status: 'pending',
      verification: { type: 'TXT', name: `_linkwell.${host}`, value: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/), method: null, verified: null, checked: null, error: null, next: expect.any(String) },
      certificate: { status: 'none', expires: null, error: null },
    })
    const one = await record(api, added.id)
    expect(one).toMatchObject({ id: added.id, domain: `https://${host}`, redirectroot: null, redirect404: null, status: 'pending', verification: added.verification })
    const listed = (await api('GET', '/api/domains?limit=100')).data.data.domains.find((entry: { id: number }) => entry.id === added.id)
    expect(listed).toEqual(one)
  })

  it('says what the TXT look-up found, and verifies once the record holds the value', async () => {
    const host = uniqueHost()
    const { id, verification } = await add(api, host)
    // The name points elsewhere: the HTTP proof (tried as well, the only claim) fails too, and says why.
    await dns.setA(host, ['192.0.2.1'])
    const none = await api('POST', `/api/domain/${id}/verify`)
    expect(none.statusCode).toBe(200)
    expect(none.data.data.status).toBe('pending')
    expect(none.data.data.verification.error).toBe(`no TXT record found at _linkwell.${host}; and ${host} does not point to this server (it resolves to 192.0.2.1)`)
    expect(none.data.data.verification.checked).toBe(nowTimestamp(now))

    await dns.setTxt(verification.name, 'someone-else')
    const wrong = await api('POST', `/api/domain/${id}/verify`)
    expect(wrong.data.data.verification.error).toContain(`the TXT record at _linkwell.${host} holds "someone-else", not this domain's value`)

    await dns.setTxt(verification.name, verification.value)
    const verified = await api('POST', `/api/domain/${id}/verify`)
    expect(verified.data.data).toMatchObject({ status: 'verified', verification: { method: 'txt', verified: nowTimestamp(now), error: null, next: null }, certificate: { status: 'none' } })
    const audit = (await api('GET', '/api/audit?resource=domain')).data.data
    expect(JSON.stringify(audit)).toContain('"status"')
  })

  it('verifies over HTTP when the name points here, answers the challenge, and no other workspace claims it', async () => {
    const host = uniqueHost()
    const { id, verification } = await add(api, host)
    // The domain's challenge, served by this app on the name (the test DNS answers 127.0.0.1).
    const challenge = (hostHeader: string) => context.app.inject({ method: 'GET', url: `/.well-known/linkwell/${verification.value}`, headers: { host: hostHeader } })
    expect((await challenge(host)).statusCode).toBe(200)
    expect((await challenge(host)).body).toBe(verification.value)
    expect((await challenge('elsewhere.test')).statusCode).toBe(404)

    const verified = await api('POST', `/api/domain/${id}/verify`)
    expect(verified.data.data).toMatchObject({ status: 'verified', verification: { method: 'http' } })
  })

  it('does not take the HTTP proof while another workspace claims the name: only TXT tells two workspaces apart', async () => {
    const host = uniqueHost()
    const mine = await add(api, host)
    const theirs = await add(otherApi, host)
    const check = await api('POST', `/api/domain/${mine.id}/verify`)
    expect(check.data.data.status).toBe('pending')
    expect(check.data.data.verification.error).toBe(`no TXT record found at _linkwell.${host}`)

    // They publish their record: theirs is verified, mine is released with a message.
    await dns.setTxt(theirs.verification.name, theirs.verification.value)
    expect((await otherApi('POST', `/api/domain/${theirs.id}/verify`)).data.data.status).toBe('verified')
    const released = await record(api, mine.id)
    expect(released.status).toBe('failed')
    expect(released.verification.error).toContain(`Another workspace proved control of ${host}`)
    // A third claim is refused while the name has a proven owner.
    const third = await apiClient(context.app, (await createAccount(context)).apiKey)('POST', '/api/domain/add', { domain: `https://${host}` })
    expect(third.statusCode).toBe(400)
    expect(third.data).toEqual({ error: 1, message: `The domain has been already used: another workspace has proven control of ${host}.`, code: 'duplicate', field: 'domain' })
    // Asking again changes nothing while the owner keeps it.
    expect((await api('POST', `/api/domain/${mine.id}/verify`)).data.data.status).toBe('failed')
  })

  it('serves the proven owner on the name: the released claim’s links no longer answer there', async () => {
    const host = uniqueHost()
    const first = await add(api, host)
    const second = await add(otherApi, host)
    expect((await api('POST', '/api/url/add', { url: 'https://first.example/', custom: 'first-link', domain: host })).statusCode).toBe(201)
    expect((await otherApi('POST', '/api/url/add', { url: 'https://second.example/', custom: 'second-link', domain: `https://${host}` })).statusCode).toBe(201)
    const visit = (alias: string) => context.app.inject({ method: 'GET', url: `/${alias}`, headers: { host } })
    // Before any proof both claims' links answer (the oldest claim routes the name).
    expect((await visit('first-link')).statusCode).toBe(302)
    expect((await visit('second-link')).statusCode).toBe(302)

    await dns.setTxt(second.verification.name, second.verification.value)
    expect((await otherApi('POST', `/api/domain/${second.id}/verify`)).data.data.status).toBe('verified')
    expect((await visit('second-link')).headers.location).toBe('https://second.example/')
    expect((await visit('first-link')).statusCode).toBe(404)
    // Kept, not lost: the released workspace still has its link.
    const kept = (await api('GET', '/api/urls?limit=100')).data.data.urls.map((link: { alias: string }) => link.alias)
    expect(kept).toContain('first-link')
    expect((await record(api, first.id)).status).toBe('failed')

    // The owner lets the name go: the released claim is checked again.
    await dns.clearTxt(second.verification.name)
    const unlinked = await otherApi('GET', '/api/urls?limit=100')
    for (const link of unlinked.data.data.urls) await otherApi('DELETE', `/api/url/${link.id}/delete`)
    expect((await otherApi('DELETE', `/api/domain/${second.id}/delete`)).statusCode).toBe(200)
    expect((await record(api, first.id)).status).toBe('pending')
    expect((await visit('first-link')).statusCode).toBe(302)
  })

  it('checks in the background every five minutes for a day, hourly for a week, then stops with a reason', async () => {
    const host = uniqueHost()
    const { id } = await add(api, host)
    // Pointed elsewhere: neither proof holds.
    await dns.setA(host, ['192.0.2.1'])
    const due = () => context.services.domains.checkDue(100)
    const next = async () => (await record(api, id)).verification.next as string
    now = new Date(now.getTime() + 1_000)
    expect(await due()).toBeGreaterThanOrEqual(1)
    expect(await next()).toBe(nowTimestamp(new Date(now.getTime() + 5 * 60_000)))
    // Not yet due: nothing taken.
    expect(await due()).toBe(0)
    now = new Date(now.getTime() + 25 * 60 * 60_000)
    await due()
    expect(await next()).toBe(nowTimestamp(new Date(now.getTime() + 60 * 60_000)))
    now = new Date(now.getTime() + 8 * 24 * 60 * 60_000)
    await due()
    const gaveUp = await record(api, id)
    expect(gaveUp.status).toBe('failed')
    expect(gaveUp.verification.next).toBeNull()
    expect(gaveUp.verification.error).toContain('No proof was found in a week of checks')
    // Asked for, it starts again.
    const again = await api('POST', `/api/domain/${id}/verify`)
    expect(again.data.data.status).toBe('pending')
    expect(again.data.data.verification.next).toBe(nowTimestamp(new Date(now.getTime() + 5 * 60_000)))
  })

  it('resolves every name through DNS_SERVERS: the TXT records, and the addresses connections are made to', async () => {
    const client = createDnsClient([dns.server])
    await dns.setA('hooks.customer.test', ['192.0.2.77'])
    expect(await client.addresses('hooks.customer.test')).toEqual([{ address: '192.0.2.77', family: 4 }])
    await dns.setTxt('_linkwell.txt.customer.test', 'one')
    expect(await client.txt('_linkwell.txt.customer.test')).toEqual({ records: ['one'] })
  })

  it('answers /tls/allowed with 200 for the service host and verified names only', async () => {
    const host = uniqueHost()
    const { id, verification } = await add(api, host)
    const allowed = (name: string) => context.app.inject({ method: 'GET', url: `/tls/allowed?domain=${encodeURIComponent(name)}` })
    expect((await allowed('lw.test')).statusCode).toBe(200)
    const refused = await allowed(host)
    expect(refused.statusCode).toBe(404)
    expect(refused.json()).toMatchObject({ error: 1, code: 'not_found' })
    await dns.setTxt(verification.name, verification.value)
    await api('POST', `/api/domain/${id}/verify`)
    expect((await allowed(host)).statusCode).toBe(200)
    expect((await allowed('unknown.test')).statusCode).toBe(404)
    expect((await context.app.inject({ method: 'GET', url: '/tls/allowed' })).statusCode).toBe(400)
  })
})

describe('a branded domain given as a bare hostname', () => {
  const { api } = useTestApp()

  it('names the workspace’s domain of that name on create and update; anything else keeps its 400', async () => {
    expect((await api('POST', '/api/domain/add', { domain: 'https://adtracking.link' })).statusCode).toBe(201)
    const created = await api('POST', '/api/url/add', { url: 'https://shop.example/', custom: 'bare', domain: 'adtracking.link' })
    expect(created.statusCode).toBe(201)
    expect(created.data.shorturl).toBe('https://adtracking.link/bare')
    const other = await api('POST', '/api/url/add', { url: 'https://shop.example/', custom: 'moved', domain: 'ADTRACKING.LINK' })
    expect(other.data.shorturl).toBe('https://adtracking.link/moved')
    const unknown = await api('POST', '/api/url/add', { url: 'https://shop.example/', domain: 'elsewhere.link' })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'domain' })
    const update = await api('PUT', `/api/url/${created.data.id}/update`, { domain: '' })
    expect(update.statusCode).toBe(200)
    const back = await api('PUT', `/api/url/${created.data.id}/update`, { domain: 'adtracking.link' })
    expect(back.statusCode).toBe(200)
    expect(back.data.shorturl).toBe('https://adtracking.link/bare')
  })

  it.each([
    ['https://192.0.2.10', 'must be a domain name, not an IP address'],
    ['https://*.brand.example', 'must be one domain name, not a wildcard'],
    ['https://localhost', 'must be a public domain name, not localhost'],
    ['https://go.localhost', 'must be a public domain name, not localhost'],
    ['https://co.uk', 'must be a domain someone can own: co.uk is a public suffix (like co.uk)'],
    ['https://github.io', 'must be a domain someone can own: github.io is a public suffix (like co.uk)'],
    [`https://${'a'.repeat(62)}.${'b'.repeat(62)}.${'c'.repeat(62)}.${'d'.repeat(62)}.example`, 'must be at most 253 characters long'],
  ])('refuses %s with a 400 naming domain', async (domain, rule) => {
    const answer = await api('POST', '/api/domain/add', { domain })
    expect(answer.statusCode).toBe(400)
    expect(answer.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'domain' })
    expect(answer.data.message).toContain(rule)
  })
})
