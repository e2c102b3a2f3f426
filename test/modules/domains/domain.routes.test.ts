import { describe, expect, it } from 'vitest'
import { fieldError } from '../../helpers/envelope.js'
import { useTestApp, type ApiClient } from '../../helpers/test-app.js'

describe('branded domain endpoints', () => {
  let hostCounter = 0

  /** A fresh hostname per test: hostnames are unique across the whole service. */
  function uniqueHost(): string {
    hostCounter += 1
    return `go${hostCounter}.brand.example`
  }

  async function listAll(client: ApiClient) {
    return (await client('GET', '/api/domains?limit=100')).data.data.domains as Array<{ id: number; domain: string; redirectroot: string | null; redirect404: string | null }>
  }

  const { context, api, otherApi } = useTestApp()

  it('adds a domain, normalised to a lower-case origin, and answers 201 {error:0, id} (with its verification, issue 43)', async () => {
    const host = uniqueHost()
    const response = await api('POST', '/api/domain/add', {
      domain: `HTTPS://${host.toUpperCase()}/`,
      redirectroot: 'https://www.brand.example/',
      redirect404: 'https://www.brand.example/missing',
    })
    expect(response.statusCode).toBe(201)
    expect(response.data).toMatchObject({ error: 0, id: expect.any(Number), status: 'pending' })
    const listed = (await listAll(api)).find((entry) => entry.id === response.data.id)
    expect(listed).toMatchObject({ id: response.data.id, domain: `https://${host}`, redirectroot: 'https://www.brand.example/', redirect404: 'https://www.brand.example/missing' })
    const row = await context.database.db.selectFrom('domains').selectAll().where('id', '=', response.data.id).executeTakeFirstOrThrow()
    expect(row.hostname).toBe(host)
  })

  it('answers null for redirects that are not set; an empty string on add means not set', async () => {
    const bare = await api('POST', '/api/domain/add', { domain: `https://${uniqueHost()}` })
    const empty = await api('POST', '/api/domain/add', { domain: `http://${uniqueHost()}`, redirectroot: '', redirect404: '' })
    expect(empty.statusCode).toBe(201)
    const listed = await listAll(api)
    for (const id of [bare.data.id, empty.data.id]) {
      expect(listed.find((entry) => entry.id === id)).toMatchObject({ redirectroot: null, redirect404: null })
    }
  })

  it('does not check DNS when SERVER_IPS and SERVER_CNAME are unset: a name that cannot resolve is accepted', async () => {
    expect(context.config.serverIps).toEqual([])
    expect(context.config.serverCname).toBeUndefined()
    const response = await api('POST', '/api/domain/add', { domain: 'https://nowhere-at-all.invalid' })
    expect(response.statusCode).toBe(201)
  })

  it('refuses a hostname the account already has, whatever the scheme or case; another account may claim it until one proves control (ADR 031)', async () => {
    const host = uniqueHost()
    expect((await api('POST', '/api/domain/add', { domain: `https://${host}` })).statusCode).toBe(201)
    for (const domain of [`https://${host}`, `http://${host.toUpperCase()}`]) {
      const again = await api('POST', '/api/domain/add', { domain })
      expect(again.statusCode).toBe(400)
      expect(again.data).toEqual({ error: 1, message: 'The domain has been already used.', code: 'duplicate', field: 'domain' })
    }
    // Proof and the refusal of a proven name: test/modules/domains/domain-ownership.test.ts.
    expect((await otherApi('POST', '/api/domain/add', { domain: `https://${host}/` })).statusCode).toBe(201)
  })

  it('refuses the service’s own PUBLIC_URL host', async () => {
    const response = await api('POST', '/api/domain/add', { domain: 'https://lw.test' })
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual({ error: 1, message: 'The field "domain" is the address of this service itself.', code: 'validation_failed', field: 'domain' })
  })

  it.each([
    [{}, 'The field "domain" is required.'],
    [{ domain: 42 }, 'The field "domain" must be an http or https address like https://go.example.com.'],
    [{ domain: '' }, 'The field "domain" must be an http or https address like https://go.example.com.'],
    [{ domain: 'go.example.com' }, 'The field "domain" must be an http or https address like https://go.example.com.'],
    [{ domain: 'ftp://go.example.com' }, 'The field "domain" must be an http or https address like https://go.example.com.'],
    [{ domain: 'https://go.example.com/landing' }, 'The field "domain" must be a domain only, without a path, query or fragment.'],
    [{ domain: 'https://go.example.com:8080' }, 'The field "domain" must not contain a port.'],
    [{ domain: 'https://192.0.2.10' }, 'The field "domain" must be a domain name, not an IP address.'],
    [{ domain: 'https://intranet' }, 'The field "domain" must be a fully qualified domain name like go.example.com.'],
    [{ domain: `https://${'x'.repeat(300)}.com` }, 'The field "domain" must be an http or https address like https://go.example.com.'],
    [{ domain: 'https://ok.example.com', redirectroot: 'javascript:alert(1)' }, 'The field "redirectroot" must be an http or https URL.'],
    [{ domain: 'https://ok.example.com', redirectroot: 7 }, 'The field "redirectroot" must be an http or https URL.'],
    [{ domain: 'https://ok.example.com', redirect404: 'data:text/html,hi' }, 'The field "redirect404" must be an http or https URL.'],
    [{ domain: 'https://ok.example.com', redirect404: ['https://a.example'] }, 'The field "redirect404" must be an http or https URL.'],
  ])('refuses %j with a 400: %s', async (body, message) => {
    const response = await api('POST', '/api/domain/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual(fieldError(message))
  })

  it('updates the redirects, clears one with an empty string, and never changes the domain', async () => {
    const host = uniqueHost()
    const created = await api('POST', '/api/domain/add', { domain: `https://${host}`, redirectroot: 'https://old.example/', redirect404: 'https://old.example/404' })
    const id = created.data.id
    const updated = await api('PUT', `/api/domain/${id}/update`, { redirectroot: 'https://new.example/', domain: 'https://hijacked.example' })
    expect(updated.statusCode).toBe(200)
    expect(updated.data).toEqual({ error: 0, message: 'Domain has been updated successfully.' })
    expect((await listAll(api)).find((entry) => entry.id === id)).toMatchObject({ id, domain: `https://${host}`, redirectroot: 'https://new.example/', redirect404: 'https://old.example/404' })
    await api('PUT', `/api/domain/${id}/update`, { redirect404: '' })
    expect((await listAll(api)).find((entry) => entry.id === id)).toMatchObject({ redirectroot: 'https://new.example/', redirect404: null })
    const untouched = await api('PUT', `/api/domain/${id}/update`, {})
    expect(untouched.statusCode).toBe(200)
    expect((await listAll(api)).find((entry) => entry.id === id)).toMatchObject({ redirectroot: 'https://new.example/', redirect404: null })
  })

  it.each([
    [{ redirectroot: 'ftp://files.example' }, 'redirectroot'],
    [{ redirectroot: 5 }, 'redirectroot'],
    [{ redirect404: 'not a url' }, 'redirect404'],
    [{ redirect404: false }, 'redirect404'],
  ])('refuses the update %j with a 400 naming %s', async (body, field) => {
    const created = await api('POST', '/api/domain/add', { domain: `https://${uniqueHost()}` })
    const response = await api('PUT', `/api/domain/${created.data.id}/update`, body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual({ error: 1, message: `The field "${field}" must be an http or https URL.`, code: 'validation_failed', field })
  })

  // Deleting, another account's domain, path ids, the list and the plan limit: test/http/owned-resources.test.ts.
  it('frees the hostname of a deleted domain, for any account', async () => {
    const host = uniqueHost()
    const created = await api('POST', '/api/domain/add', { domain: `https://${host}` })
    expect((await api('DELETE', `/api/domain/${created.data.id}/delete`)).statusCode).toBe(200)
    expect((await otherApi('POST', '/api/domain/add', { domain: `https://${host}` })).statusCode).toBe(201)
  })
})

describe('branded domain DNS check with SERVER_IPS set', () => {
  const { api } = useTestApp({ env: { SERVER_IPS: '203.0.113.7' } })

  // `.invalid` never resolves (RFC 6761), so with real DNS, reachable or not, the answer is a 400.
  it('refuses, through the real resolver, a domain that does not resolve to our addresses', async () => {
    const response = await api('POST', '/api/domain/add', { domain: 'https://not-pointing.invalid' })
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual({ error: 1, message: 'The domain is not pointing to our server.', code: 'domain_not_pointing', field: 'domain' })
    expect((await api('GET', '/api/domains')).data.data.result).toBe(0)
  }, 30_000)
})
