// The remembered trust rule (src/http/client-address.ts) answers what proxy-addr's compiled rule
// answers, for every address and however many it has seen, so the client a request names is the
// same as without it.
import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import { describe, expect, it } from 'vitest'
import { clientAddressOf, createProxyTrust } from '../../src/http/client-address.js'

const TRUSTED = ['127.0.0.1', '10.0.0.0/8', 'fd00::/8']
const ADDRESSES = ['127.0.0.1', '127.0.0.2', '10.1.2.3', '11.1.2.3', '::ffff:10.1.2.3', '::ffff:127.0.0.1', 'fd00::1', 'fe80::1', '::1', '8.8.8.8', 'not an address', '', '999.1.1.1']

function requestFrom(socketAddress: string, forwardedFor?: string): IncomingMessage {
  return { socket: { remoteAddress: socketAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage
}

describe('the trusted proxies rule', () => {
  it('answers as proxy-addr does, first seen and remembered', () => {
    const compiled = proxyAddr.compile(TRUSTED)
    const trust = createProxyTrust(TRUSTED)
    for (let pass = 0; pass < 2; pass += 1) {
      for (const address of ADDRESSES) expect(trust(address, 0), address).toBe(compiled(address, 0))
    }
  })

  it('keeps answering rightly past the number of addresses it remembers', () => {
    const trust = createProxyTrust(['10.0.0.0/8'])
    for (let index = 0; index < 2_500; index += 1) {
      const address = `10.0.${index >> 8}.${index & 255}`
      expect(trust(address, 0)).toBe(true)
      expect(trust(`11.0.${index >> 8}.${index & 255}`, 1)).toBe(false)
    }
    expect(trust('10.0.0.1', 0)).toBe(true)
  })

  it('names the client as Fastify does: the socket, or the nearest untrusted hop', () => {
    const trust = createProxyTrust(TRUSTED)
    const compiled = proxyAddr.compile(TRUSTED)
    const cases: [string, string | undefined][] = [
      ['127.0.0.1', '203.0.113.9'],
      ['127.0.0.1', '198.51.100.1, 10.0.0.5'],
      ['127.0.0.1', '198.51.100.1, 203.0.113.9, 10.0.0.5'],
      ['8.8.8.8', '203.0.113.9'],
      ['127.0.0.1', undefined],
      ['127.0.0.1', ''],
      ['127.0.0.1', 'garbage, 10.0.0.5'],
    ]
    for (const [socket, forwarded] of cases) {
      const request = requestFrom(socket, forwarded)
      expect(clientAddressOf(request, trust), `${socket} ← ${forwarded}`).toBe(proxyAddr(request, compiled))
    }
    expect(clientAddressOf(requestFrom('127.0.0.1', '203.0.113.9'), trust)).toBe('203.0.113.9')
    expect(clientAddressOf(requestFrom('127.0.0.1', '203.0.113.9'), null)).toBe('127.0.0.1')
  })
})
