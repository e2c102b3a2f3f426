// HTTPS for branded domains, end to end (issue 43): the built server with ACME_EMAIL against
// Debian's pebble (the ACME test server) and pebble-challtestsrv (DNS), all on loopback. Add a
// domain, publish its TXT record, watch it verify and its certificate arrive, then follow a short
// link over https to it (the chain checked against pebble's root, trusted by this client only); an
// unknown name gets no certificate, a handshake without a name gets the main host's, port 80 keeps
// serving links and sends the API to https, HSTS=on marks the main host; a renewal forced for a
// certificate near its end replaces it without a restart; a second instance on PostgreSQL serves
// the same certificate.
import http from 'node:http'
import https from 'node:https'
import tls from 'node:tls'
import { beforeAll, describe, expect, it } from 'vitest'
import { hasPebble, useAcmeServers, type TestAcmeServer, type TestDns } from '../helpers/acme-servers.js'
import { eventually } from '../helpers/eventually.js'
import { freePort, startServer, type ServerProcess } from '../helpers/server-process.js'
import { openDatabase } from '../../src/db/database.js'
import { nowTimestamp } from '../../src/core/time.js'
import { e2eDatabases, firstStartCredentials, useBrowser } from './harness.js'

const MAIN_HOST = 'links.acme.test'

interface Handshake {
  /** The leaf's serial number and the names it holds, or the error that ended the handshake. */
  serial?: string
  names?: string
  error?: string
  /** The answer to the request sent over it. */
  status?: number
  headers?: Record<string, string | string[] | undefined>
}

/** A request over TLS to 127.0.0.1:`port` naming `servername` (none for ''), trusting `root` only. */
function overTls(port: number, servername: string, root: string, path = '/healthz', host = servername): Promise<Handshake> {
  return new Promise((resolve) => {
    const request = https.request({ host: '127.0.0.1', port, path, servername: servername || undefined, ca: root, headers: { host: host || MAIN_HOST }, agent: false, checkServerIdentity: (name, certificate) => tls.checkServerIdentity(servername || MAIN_HOST, certificate) }, (response) => {
      const certificate = (response.socket as tls.TLSSocket).getPeerCertificate()
      response.resume()
      response.on('end', () => resolve({ serial: certificate.serialNumber, names: certificate.subjectaltname, status: response.statusCode, headers: response.headers }))
    })
    request.on('error', (error) => resolve({ error: error.message }))
    request.end()
  })
}

/** A plain HTTP request to 127.0.0.1:`port` for `host` (fetch does not send a Host header of ours). */
function overHttp(port: number, host: string, path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }))
    }).on('error', reject)
  })
}

describe.skipIf(!hasPebble)('HTTPS for branded domains from an ACME server', () => {
  // The databases' list and a scratch folder come with the browser walks' harness (no page is opened here).
  const { folder } = useBrowser()
  const servers = useAcmeServers()
  let dns: TestDns
  let acme: TestAcmeServer
  let httpPort: number
  let root: string

  beforeAll(async () => {
    ;[dns, acme, httpPort] = [servers.dns(), servers.acme(), servers.httpPort()]
    root = await acme.issuingRoot()
  })

  it.each(e2eDatabases(folder))('verifies a domain, gets its certificate, serves it over https, renews it ($name)', async ({ name, create }) => {
    // A name per database: the test DNS keeps the other run's record.
    const BRANDED = `go-${name}.brand.test`
    const database = await create()
    const httpsPort = await freePort()
    const port = await freePort()
    const env = {
      PORT: String(port),
      PUBLIC_URL: `http://${MAIN_HOST}:${port}`,
      DATABASE_URL: database.url,
      ACME_EMAIL: 'ops@brand.test',
      ACME_DIRECTORY_URL: acme.directoryUrl,
      ACME_CHECK_SECONDS: '1',
      NODE_EXTRA_CA_CERTS: acme.tlsCertificateFile,
      DNS_SERVERS: dns.server,
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(httpsPort),
      HSTS: 'on',
      DOMAIN_VERIFICATION: 'txt',
      // The test reads a domain every 250 ms while its certificate is issued: more than the default
      // 30 requests a minute when the ACME server is slow (a CI run's GET answered 429 there).
      RATE_LIMIT_PER_MINUTE: '100000',
    }
    const servers: ServerProcess[] = []
    try {
      const server = await startServer(env)
      servers.push(server)
      const { apiKey } = await firstStartCredentials(server)
      const api = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
        return { status: response.status, body: (await response.json()) as any }
      }

      // The main host's certificate comes first, by itself; a handshake without a name gets it.
      const main = await eventually(() => overTls(httpsPort, MAIN_HOST, root), (answer) => answer.status === 200, { timeoutMs: 60_000, intervalMs: 250 })
      expect(main.names).toContain(`DNS:${MAIN_HOST}`)
      expect(main.headers?.['strict-transport-security']).toBe('max-age=31536000')
      expect((await overTls(httpsPort, '', root)).serial).toBe(main.serial)
      // A short link of the main host over https: HSTS whichever path answers it, the router's
      // (the first visit) or the front door's short path (the second, from memory).
      expect((await api('POST', '/api/url/add', { url: 'https://shop.example.test/main', custom: 'main-link' })).status).toBe(201)
      for (let visit = 0; visit < 2; visit += 1) {
        const redirect = await overTls(httpsPort, MAIN_HOST, root, '/main-link')
        expect({ visit, status: redirect.status, hsts: redirect.headers?.['strict-transport-security'] }).toEqual({ visit, status: 302, hsts: 'max-age=31536000' })
      }
      // A name nobody proved: no certificate, the handshake is refused.
      expect((await overTls(httpsPort, BRANDED, root)).error).toBeDefined()

      const added = await api('POST', '/api/domain/add', { domain: `https://${BRANDED}` })
      expect(added.status).toBe(201)
      expect(added.body).toMatchObject({ status: 'pending', certificate: { status: 'none' } })
      expect((await api('POST', `/api/domain/${added.body.id}/verify`)).body.data.verification.error).toBe(`no TXT record found at _linkwell.${BRANDED}`)
      await dns.setTxt(added.body.verification.name, added.body.verification.value)
      // The background check finds it (DOMAIN_CHECK_POLL_SECONDS is 30: asked for, it is at once).
      expect((await api('POST', `/api/domain/${added.body.id}/verify`)).body.data.status).toBe('verified')
      const active = await eventually(() => api('GET', `/api/domain/${added.body.id}`), (answer) => answer.status === 200 && answer.body.data.certificate.status === 'active', { timeoutMs: 60_000, intervalMs: 250 })
      expect(active.body.data.certificate).toEqual({ status: 'active', expires: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), error: null })

      expect((await api('POST', '/api/url/add', { url: 'https://shop.brand.test/spring', custom: 'spring', domain: BRANDED })).status).toBe(201)
      const visit = await eventually(() => overTls(httpsPort, BRANDED, root, '/spring'), (answer) => answer.status === 302)
      expect(visit.headers?.location).toBe('https://shop.brand.test/spring')
      expect(visit.names).toContain(`DNS:${BRANDED}`)
      // Only the main host gets HSTS: a branded domain's certificate may come later than its links.
      expect(visit.headers?.['strict-transport-security']).toBeUndefined()

      // Port 80 keeps serving short links, sends the API and the dashboard to https, answers challenges.
      expect(await overHttp(httpPort, BRANDED, '/spring')).toEqual({ status: 302, location: 'https://shop.brand.test/spring' })
      expect(await overHttp(httpPort, MAIN_HOST, '/api/account')).toEqual({ status: 301, location: `https://${MAIN_HOST}:${httpsPort}/api/account` })
      expect(await overHttp(httpPort, MAIN_HOST, '/app/')).toEqual({ status: 301, location: `https://${MAIN_HOST}:${httpsPort}/app/` })
      // PORT, for a proxy in front, keeps plain HTTP as before.
      expect((await api('GET', '/api/account')).status).toBe(200)

      // A renewal forced for a certificate near its end: a new one is served without a restart.
      const handle = openDatabase(database.url)
      try {
        await handle.db.updateTable('tls_certificates').set({ expires_at: nowTimestamp(new Date(Date.now() + 10 * 24 * 60 * 60 * 1000)) }).where('hostname', '=', BRANDED).execute()
      } finally {
        await handle.close()
      }
      const renewed = await eventually(() => overTls(httpsPort, BRANDED, root, '/spring'), (answer) => answer.serial !== undefined && answer.serial !== visit.serial, { timeoutMs: 60_000, intervalMs: 250 })
      expect(renewed.status).toBe(302)

      if (name === 'postgres') {
        // A second instance on the same database serves the same certificate (it orders nothing itself).
        const secondHttps = await freePort()
        const second = await startServer({ ...env, PORT: String(await freePort()), HTTP_PORT: String(await freePort()), HTTPS_PORT: String(secondHttps) })
        servers.push(second)
        const served = await eventually(() => overTls(secondHttps, BRANDED, root, '/spring'), (answer) => answer.status === 302)
        expect(served.serial).toBe(renewed.serial)
      }
    } finally {
      for (const server of servers) expect(await server.stop()).toBe(0)
      await database.drop()
    }
  })
})
