// One look at a destination, against local servers (allowPrivate, as LINK_CHECK_ALLOW_PRIVATE=1
// lets tests): 2xx, redirects (at most 5), HEAD refused then a small GET, broken and inconclusive
// answers, a timeout, and private addresses refused when not allowed.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_REDIRECTS, probeDestination } from '../../../src/modules/link-health/destination-probe.js'

let server: http.Server
let base: string
const methods: string[] = []

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const url = new URL(request.url!, 'http://x')
    methods.push(`${request.method} ${url.pathname}`)
    const hops = Number(url.searchParams.get('hops') ?? 0)
    switch (url.pathname) {
      case '/ok': return void response.writeHead(200).end('fine')
      case '/gone': return void response.writeHead(410).end()
      case '/error': return void response.writeHead(500).end()
      case '/login': return void response.writeHead(403).end()
      case '/no-head':
        if (request.method === 'HEAD') return void response.writeHead(405).end()
        return void response.writeHead(206, { 'content-type': 'text/plain' }).end('x'.repeat(5000))
      case '/hop': return void response.writeHead(302, { location: hops > 1 ? `/hop?hops=${hops - 1}` : '/ok' }).end()
      case '/slow': return void setTimeout(() => response.writeHead(200).end(), 2_000)
      default: return void response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const local = { allowPrivate: true }

describe('probeDestination', () => {
  it('reads 2xx as ok, and 2xx after redirects as redirected, with where it ended', async () => {
    expect(await probeDestination(`${base}/ok`, local)).toEqual({ health: 'ok', status: 200, finalUrl: `${base}/ok`, reason: null })
    expect(await probeDestination(`${base}/hop?hops=${MAX_REDIRECTS}`, local)).toEqual({ health: 'redirected', status: 200, finalUrl: `${base}/ok`, reason: null })
  })

  it('calls a chain longer than five redirects broken', async () => {
    expect(await probeDestination(`${base}/hop?hops=${MAX_REDIRECTS + 1}`, local)).toMatchObject({ health: 'broken', status: 302, reason: 'more than 5 redirects' })
  })

  it('sends a small GET where HEAD is refused', async () => {
    methods.length = 0
    expect(await probeDestination(`${base}/no-head`, local)).toMatchObject({ health: 'ok', status: 206 })
    expect(methods).toEqual(['HEAD /no-head', 'GET /no-head'])
  })

  it('calls 404, 410 and 5xx broken, 401/403/429 unknown', async () => {
    expect(await probeDestination(`${base}/missing`, local)).toMatchObject({ health: 'broken', status: 404 })
    expect(await probeDestination(`${base}/gone`, local)).toMatchObject({ health: 'broken', status: 410 })
    expect(await probeDestination(`${base}/error`, local)).toMatchObject({ health: 'broken', status: 500 })
    expect(await probeDestination(`${base}/login`, local)).toMatchObject({ health: 'unknown', status: 403 })
  })

  it('calls a refused connection and an unresolvable host broken, a timeout unknown', async () => {
    expect(await probeDestination('http://127.0.0.1:9/', local)).toMatchObject({ health: 'broken', status: null, reason: expect.stringContaining('ECONNREFUSED') })
    const nowhere = await probeDestination('http://nowhere.invalid/', { allowPrivate: true, resolveHost: async () => { throw new Error('ENOTFOUND') } })
    expect(nowhere).toMatchObject({ health: 'broken', reason: 'the host nowhere.invalid does not resolve' })
    expect(await probeDestination(`${base}/slow`, { allowPrivate: true, timeoutMs: 300 })).toMatchObject({ health: 'unknown', reason: 'no answer within 0.3 s' })
  })

  it('never visits a private, loopback or link-local address unless allowed, nor a redirect to one', async () => {
    methods.length = 0
    expect(await probeDestination(`${base}/ok`, { allowPrivate: false })).toMatchObject({ health: 'unknown', status: null, reason: expect.stringContaining('private') })
    const viaName = await probeDestination('http://shop.example/', { allowPrivate: false, resolveHost: async () => [{ address: '169.254.169.254', family: 4 }] })
    expect(viaName).toMatchObject({ health: 'unknown', reason: expect.stringContaining('private') })
    expect(methods).toEqual([])
    expect(await probeDestination('ftp://example.com/file', local)).toMatchObject({ health: 'unknown', reason: 'ftp: addresses are not checked' })
  })
})
