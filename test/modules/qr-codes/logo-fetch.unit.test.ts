// Fetches from a local server on 127.0.0.1: allowed only when a test loosens the address policy.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPublicAddress } from '../../../src/core/address-policy.js'
import { fetchLogo, type LogoFetchOptions } from '../../../src/modules/qr-codes/logo-fetch.js'
import { makeLogo } from './qr-test-support.js'

const allowAll: LogoFetchOptions = { isAllowedAddress: () => true }
/** The real policy, plus the one local test server, so redirects from it meet the real rules. */
const allowOnlyLocalServer: LogoFetchOptions = { isAllowedAddress: (address) => address === '127.0.0.1' || isPublicAddress(address) }

describe('fetchLogo', () => {
  let server: http.Server
  let base: string
  let png: Buffer
  let jpeg: Buffer
  const hostHeaders: string[] = []

  beforeAll(async () => {
    png = await makeLogo()
    jpeg = await makeLogo({ format: 'jpeg' })
    server = http.createServer((request, response) => {
      hostHeaders.push(request.headers.host ?? '')
      const url = new URL(request.url ?? '/', 'http://local')
      const hops = Number(url.searchParams.get('hops') ?? 0)
      switch (url.pathname) {
        case '/logo.png':
          return response.writeHead(200, { 'content-type': 'image/png' }).end(png)
        case '/logo.jpg':
          // Served with a misleading type: the content decides, not the header.
          return response.writeHead(200, { 'content-type': 'text/plain' }).end(jpeg)
        case '/not-an-image':
          return response.writeHead(200, { 'content-type': 'image/png' }).end('<html>hello</html>')
        case '/huge-declared':
          return response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(600 * 1024) }).end(Buffer.concat([png, Buffer.alloc(600 * 1024 - png.length)]))
        case '/huge-streamed': {
          // No Content-Length: the limit must hold while streaming.
          response.writeHead(200, { 'content-type': 'image/png' })
          response.write(png)
          const chunk = Buffer.alloc(64 * 1024)
          for (let sent = 0; sent < 1024 * 1024; sent += chunk.length) response.write(chunk)
          return response.end()
        }
        case '/redirect':
          return response.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/logo.png' }).end()
        case '/redirect-to':
          return response.writeHead(301, { location: url.searchParams.get('target') ?? '/' }).end()
        case '/slow':
          return setTimeout(() => response.writeHead(200).end(png), 2_000)
        default:
          return response.writeHead(404).end()
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('fetches a PNG when the policy allows the local address', async () => {
    expect((await fetchLogo(`${base}/logo.png`, allowAll)).equals(png)).toBe(true)
  })

  it('judges the content by its magic bytes, not by Content-Type', async () => {
    expect((await fetchLogo(`${base}/logo.jpg`, allowAll)).equals(jpeg)).toBe(true)
    await expect(fetchLogo(`${base}/not-an-image`, allowAll)).rejects.toThrow('The logo could not be fetched: the file is not a PNG or JPEG image.')
  })

  it('refuses loopback, private, link-local and IPv6 loopback addresses under the real policy', async () => {
    await expect(fetchLogo(`${base}/logo.png`)).rejects.toThrow('The logo could not be fetched: the host 127.0.0.1 resolves to a private, local or reserved address.')
    await expect(fetchLogo('http://10.0.0.1/logo.png')).rejects.toThrow('resolves to a private, local or reserved address')
    await expect(fetchLogo('http://169.254.169.254/latest/meta-data/')).rejects.toThrow('resolves to a private, local or reserved address')
    await expect(fetchLogo(`http://[::1]:${new URL(base).port}/logo.png`)).rejects.toThrow('the host ::1 resolves to a private')
    await expect(fetchLogo('http://[::ffff:127.0.0.1]/logo.png')).rejects.toThrow('resolves to a private')
  })

  it('refuses a host name that resolves to a local address (localhost)', async () => {
    await expect(fetchLogo(`http://localhost:${new URL(base).port}/logo.png`)).rejects.toThrow('the host localhost resolves to a private, local or reserved address')
  })

  it('refuses when ANY resolved address is refused, even if the first one is public', async () => {
    const resolveHost = async () => [{ address: '93.184.215.14', family: 4 as const }, { address: '10.0.0.5', family: 4 as const }]
    await expect(fetchLogo('http://mixed.example/logo.png', { resolveHost })).rejects.toThrow('the host mixed.example resolves to a private')
  })

  it('connects to the address it checked, not to a second DNS answer', async () => {
    // `logo.example` cannot resolve through the system; only the checked answer can be used.
    let lookups = 0
    const resolveHost = async () => {
      lookups += 1
      return [{ address: '127.0.0.1', family: 4 as const }]
    }
    const port = new URL(base).port
    const bytes = await fetchLogo(`http://logo.example:${port}/logo.png`, { ...allowAll, resolveHost })
    expect(bytes.equals(png)).toBe(true)
    expect(lookups).toBe(1)
    expect(hostHeaders.at(-1)).toBe(`logo.example:${port}`)
  })

  it('follows up to 3 redirects and refuses a 4th', async () => {
    expect((await fetchLogo(`${base}/redirect?hops=3`, allowAll)).equals(png)).toBe(true)
    await expect(fetchLogo(`${base}/redirect?hops=4`, allowAll)).rejects.toThrow('The logo could not be fetched: more than 3 redirects.')
  })

  it('checks every redirect hop: an allowed server cannot redirect to a refused address', async () => {
    for (const target of ['http://10.0.0.1/logo.png', 'http://169.254.169.254/latest', 'http://[::1]/x.png', 'http://192.168.0.10/a.png']) {
      await expect(fetchLogo(`${base}/redirect-to?target=${encodeURIComponent(target)}`, allowOnlyLocalServer)).rejects.toThrow('resolves to a private, local or reserved address')
    }
    await expect(fetchLogo(`${base}/redirect-to?target=${encodeURIComponent('file:///etc/passwd')}`, allowOnlyLocalServer)).rejects.toThrow('only http and https addresses are allowed')
  })

  it('refuses images over 500 KB, declared or streamed', async () => {
    await expect(fetchLogo(`${base}/huge-declared`, allowAll)).rejects.toThrow('The logo could not be fetched: the image is larger than 500 KB.')
    await expect(fetchLogo(`${base}/huge-streamed`, allowAll)).rejects.toThrow('the image is larger than 500 KB')
  })

  it('gives up after the total timeout', async () => {
    await expect(fetchLogo(`${base}/slow`, { ...allowAll, timeoutMs: 200 })).rejects.toThrow('The logo could not be fetched: no complete answer within 0.2 s.')
  })

  it('reports error statuses, bad URLs, other schemes and credentials', async () => {
    await expect(fetchLogo(`${base}/missing.png`, allowAll)).rejects.toThrow('The logo could not be fetched: the server answered HTTP 404.')
    await expect(fetchLogo('http://', allowAll)).rejects.toThrow('the address is not a valid URL')
    await expect(fetchLogo('ftp://example.com/logo.png', allowAll)).rejects.toThrow('only http and https addresses are allowed')
    await expect(fetchLogo('file:///etc/passwd', allowAll)).rejects.toThrow('only http and https addresses are allowed')
    await expect(fetchLogo(`http://user:pass@127.0.0.1:${new URL(base).port}/logo.png`, allowAll)).rejects.toThrow('addresses with credentials are not allowed')
  })

  it('reports hosts that do not resolve and connections that fail', async () => {
    const failing = async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    }
    await expect(fetchLogo('http://nowhere.invalid/logo.png', { resolveHost: failing })).rejects.toThrow('the host nowhere.invalid could not be resolved')
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    await expect(fetchLogo(`http://127.0.0.1:${port}/logo.png`, allowAll)).rejects.toThrow('the connection failed (ECONNREFUSED)')
  })
})
