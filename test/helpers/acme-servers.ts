// The ACME test servers of Debian's `pebble` package, started on free loopback ports with
// temporary folders: `pebble-challtestsrv`, a DNS server whose records a test sets over HTTP
// (the branded domains' TXT records; A answers 127.0.0.1 for every name), and `pebble`, the
// ACME server, which resolves names through it and fetches HTTP-01 answers from a port of ours.
// `.ci/run` installs the package: there a missing binary is a failure, elsewhere a skip.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll } from 'vitest'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import https from 'node:https'
import { freePort } from './server-process.js'

export const PEBBLE = '/usr/bin/pebble'
export const CHALLTESTSRV = '/usr/bin/pebble-challtestsrv'
export const hasPebble = fs.existsSync(PEBBLE) && fs.existsSync(CHALLTESTSRV)
if (!hasPebble && process.env.CI) throw new Error(`${PEBBLE} is missing: .ci/run should have installed Debian's pebble.`)
if (!hasPebble) process.stdout.write('\nSKIPPED: the branded-domain DNS and ACME tests (apt-get install pebble).\n')

function started(child: ChildProcess, name: string, output: () => string): void {
  child.once('exit', (code) => {
    if (code !== null && code !== 0) process.stderr.write(`${name} exited with ${code}:\n${output()}\n`)
  })
}

/** Waits until `probe` stops throwing (a server's port answers), for at most 15 s. */
async function until(probe: () => Promise<unknown>, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000
  for (;;) {
    try {
      await probe()
      return
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} did not start: ${(error as Error).message}\n${output()}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

export interface TestDns {
  /** `127.0.0.1:PORT`: what DNS_SERVERS takes. */
  server: string
  setTxt(name: string, value: string): Promise<void>
  clearTxt(name: string): Promise<void>
  /** Answers `addresses` for A queries of `name` (by default every name is 127.0.0.1). */
  setA(name: string, addresses: string[]): Promise<void>
  stop(): Promise<void>
}

/** pebble-challtestsrv as a DNS server of the test's own. */
export async function startTestDns(): Promise<TestDns> {
  const dnsPort = await freePort()
  const managementPort = await freePort()
  let output = ''
  const child = spawn(CHALLTESTSRV, ['-dns01', `127.0.0.1:${dnsPort}`, '-management', `127.0.0.1:${managementPort}`, '-http01', '', '-https01', '', '-tlsalpn01', '', '-defaultIPv6', ''], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  started(child, 'pebble-challtestsrv', () => output)
  const management = `http://127.0.0.1:${managementPort}`
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${management}${route}`, { method: 'POST', body: JSON.stringify(body) })
    if (!response.ok) throw new Error(`pebble-challtestsrv ${route} answered ${response.status}: ${await response.text()}`)
  }
  const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`)
  await until(() => post('/clear-txt', { host: 'ready.test.' }), 'pebble-challtestsrv', () => output)
  return {
    server: `127.0.0.1:${dnsPort}`,
    setTxt: (name, value) => post('/set-txt', { host: fqdn(name), value }),
    clearTxt: (name) => post('/clear-txt', { host: fqdn(name) }),
    setA: (name, addresses) => post('/add-a', { host: fqdn(name), addresses }),
    stop: () => stop(child),
  }
}

export interface TestAcmeServer {
  /** The ACME directory's address (ACME_DIRECTORY_URL). */
  directoryUrl: string
  /** The file of pebble's own TLS certificate: NODE_EXTRA_CA_CERTS of a client of it. */
  tlsCertificateFile: string
  /** The root that signs the certificates pebble issues (PEM), to verify a served chain. */
  issuingRoot(): Promise<string>
  stop(): Promise<void>
}

/**
 * pebble on loopback, resolving through `dns` and fetching HTTP-01 answers on `httpPort` (the
 * server's HTTP_PORT). Its own TLS certificate is made here for 127.0.0.1; no nonce is refused on
 * purpose and no validation waits (the test's time goes to what it tests).
 */
export async function startAcmeServer(dns: TestDns, httpPort: number): Promise<TestAcmeServer> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-pebble-'))
  const certificate = path.join(folder, 'pebble.pem')
  const key = path.join(folder, 'pebble.key')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', certificate, '-days', '2', '-subj', '/CN=pebble test server', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' })
  const port = await freePort()
  const managementPort = await freePort()
  fs.writeFileSync(path.join(folder, 'pebble.json'), JSON.stringify({
    pebble: { listenAddress: `127.0.0.1:${port}`, managementListenAddress: `127.0.0.1:${managementPort}`, certificate, privateKey: key, httpPort, tlsPort: 5001, ocspResponderURL: '', externalAccountBindingRequired: false },
  }))
  let output = ''
  const child = spawn(PEBBLE, ['-config', path.join(folder, 'pebble.json'), '-dnsserver', dns.server], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
  })
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  started(child, 'pebble', () => output)
  // This process trusts pebble's certificate for its own requests only (the server gets NODE_EXTRA_CA_CERTS).
  const ca = fs.readFileSync(certificate, 'utf8')
  const get = (url: string) => new Promise<string>((resolve, reject) => {
    https.get(url, { ca }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => (response.statusCode === 200 ? resolve(body) : reject(new Error(`${url} answered ${response.statusCode}`))))
    }).on('error', reject)
  })
  const directoryUrl = `https://127.0.0.1:${port}/dir`
  await until(() => get(directoryUrl), 'pebble', () => output)
  return {
    directoryUrl,
    tlsCertificateFile: certificate,
    issuingRoot: () => get(`https://127.0.0.1:${managementPort}/roots/0`),
    stop: async () => {
      await stop(child)
      fs.rmSync(folder, { recursive: true, force: true })
    },
  }
}

export interface AcmeTestServers {
  dns(): TestDns
  acme(): TestAcmeServer
  /** The HTTP_PORT pebble fetches HTTP-01 answers from: the server under test listens there. */
  httpPort(): number
}

/** The test DNS server and pebble for a test file, started before its tests and stopped after. */
export function useAcmeServers(): AcmeTestServers {
  let dns: TestDns | undefined
  let acme: TestAcmeServer | undefined
  let httpPort = 0
  beforeAll(async () => {
    dns = await startTestDns()
    httpPort = await freePort()
    acme = await startAcmeServer(dns, httpPort)
  }, 60_000)
  afterAll(async () => {
    await acme?.stop()
    await dns?.stop()
  })
  return { dns: () => dns!, acme: () => acme!, httpPort: () => httpPort }
}
