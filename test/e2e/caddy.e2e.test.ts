// For people who already run a proxy (issue 43): Debian's caddy in front of the built server, with
// on-demand TLS whose `ask` is Linkwell's /tls/allowed and certificates from Caddy's own internal
// CA (`tls internal`), all on loopback. A verified branded domain is served over https through it;
// an unverified one is refused at the handshake, because Caddy asked and Linkwell said no. The
// Caddyfile is the README's, with loopback ports.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPebble, startTestDns, type TestDns } from '../helpers/acme-servers.js'
import { eventually } from '../helpers/eventually.js'
import { freePort, startServer, type ServerProcess } from '../helpers/server-process.js'
import { firstStartCredentials, freshSqlite, useBrowser } from './harness.js'

const CADDY = '/usr/bin/caddy'
const hasCaddy = fs.existsSync(CADDY)
if (!hasCaddy && process.env.CI) throw new Error(`${CADDY} is missing: .ci/run should have installed Debian's caddy.`)
if (!hasCaddy) process.stdout.write('\nSKIPPED: the Caddy on-demand TLS test (apt-get install caddy).\n')

/** GET `path` through Caddy's https port naming `servername`, trusting Caddy's internal root only. */
function throughCaddy(port: number, servername: string, root: string, path: string): Promise<{ status?: number; location?: string; error?: string }> {
  return new Promise((resolve) => {
    const request = https.get({ host: '127.0.0.1', port, path, servername, ca: root, headers: { host: servername }, agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve({ status: response.statusCode, location: response.headers.location }))
    })
    request.on('error', (error) => resolve({ error: error.message }))
  })
}

describe.skipIf(!hasCaddy || !hasPebble)('Linkwell behind Caddy with on-demand TLS', () => {
  // A scratch folder (and the built server) from the browser walks' harness.
  const { folder } = useBrowser()
  let dns: TestDns
  let server: ServerProcess
  let caddy: ChildProcess
  let caddyOutput = ''
  let caddyFolder: string

  beforeAll(async () => {
    dns = await startTestDns()
  })
  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      const exited = new Promise((resolve) => caddy.once('exit', resolve))
      caddy.kill('SIGTERM')
      await exited
    }
    if (server) expect(await server.stop()).toBe(0)
    await dns?.stop()
    if (caddyFolder) fs.rmSync(caddyFolder, { recursive: true, force: true })
  })

  it('serves a verified domain over https through Caddy and refuses an unverified one at the handshake', async () => {
    const database = await freshSqlite(folder())
    const port = await freePort()
    server = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATABASE_URL: database.url, DNS_SERVERS: dns.server, TRUSTED_PROXIES: '127.0.0.1', DOMAIN_VERIFICATION: 'txt' })
    const { apiKey } = await firstStartCredentials(server)
    const api = async (method: string, address: string, body?: unknown) => {
      const response = await fetch(`${server.url}${address}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      return { status: response.status, body: (await response.json()) as any }
    }
    const verified = (await api('POST', '/api/domain/add', { domain: 'https://go.caddy.test' })).body
    await dns.setTxt(verified.verification.name, verified.verification.value)
    expect((await api('POST', `/api/domain/${verified.id}/verify`)).body.data.status).toBe('verified')
    expect((await api('POST', '/api/domain/add', { domain: 'https://unproven.caddy.test' })).status).toBe(201)
    expect((await api('POST', '/api/url/add', { url: 'https://shop.caddy.test/spring', custom: 'spring', domain: 'go.caddy.test' })).status).toBe(201)

    // The README's Caddyfile, on loopback ports, with Caddy's data in a folder of the test's own.
    caddyFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-caddy-'))
    const httpsPort = await freePort()
    const caddyfile = path.join(caddyFolder, 'Caddyfile')
    fs.writeFileSync(caddyfile, [
      '{',
      '  admin off',
      `  http_port ${await freePort()}`,
      `  https_port ${httpsPort}`,
      '  skip_install_trust',
      '  on_demand_tls {',
      `    ask http://127.0.0.1:${port}/tls/allowed`,
      '  }',
      '}',
      'https:// {',
      '  tls internal {',
      '    on_demand',
      '  }',
      `  reverse_proxy 127.0.0.1:${port}`,
      '}',
      '',
    ].join('\n'))
    caddy = spawn(CADDY, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      env: { ...process.env, HOME: caddyFolder, XDG_DATA_HOME: path.join(caddyFolder, 'data'), XDG_CONFIG_HOME: path.join(caddyFolder, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    caddy.stdout!.on('data', (chunk) => (caddyOutput += chunk))
    caddy.stderr!.on('data', (chunk) => (caddyOutput += chunk))
    const rootFile = path.join(caddyFolder, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt')
    const root = await eventually(() => (fs.existsSync(rootFile) ? fs.readFileSync(rootFile, 'utf8') : ''), (text) => text.includes('BEGIN CERTIFICATE'), { timeoutMs: 30_000 })
      .catch((error: Error) => { throw new Error(`${error.message}\n${caddyOutput}`) })

    const visit = await eventually(() => throughCaddy(httpsPort, 'go.caddy.test', root, '/spring'), (answer) => answer.status !== undefined, { timeoutMs: 30_000, intervalMs: 200 })
      .catch((error: Error) => { throw new Error(`${error.message}\n${caddyOutput}`) })
    expect(visit).toEqual({ status: 302, location: 'https://shop.caddy.test/spring' })
    // Caddy asked Linkwell before issuing, and was told no.
    const refused = await throughCaddy(httpsPort, 'unproven.caddy.test', root, '/spring')
    expect(refused.error).toBeDefined()
    expect(refused.status).toBeUndefined()
    expect((await fetch(`${server.url}/tls/allowed?domain=unproven.caddy.test`)).status).toBe(404)
  }, 120_000)
})
