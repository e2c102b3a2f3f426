import { describe, expect, it } from 'vitest'
import { parseDomainOrigin } from '../../../src/modules/domains/domain-origin.js'
import { ValidationError } from '../../../src/core/errors.js'

describe('parseDomainOrigin', () => {
  it.each([
    ['https://Go.Example.com/', 'https://go.example.com', 'go.example.com'],
    ['http://links.example.org', 'http://links.example.org', 'links.example.org'],
    ['  HTTPS://SHORT.EXAMPLE.NET  ', 'https://short.example.net', 'short.example.net'],
    ['https://go.example.com.', 'https://go.example.com', 'go.example.com'],
    ['https://go.example.com:443', 'https://go.example.com', 'go.example.com'],
    ['http://go.example.com:80/', 'http://go.example.com', 'go.example.com'],
    ['https://bücher.example', 'https://xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['https://a-b.c-d.example', 'https://a-b.c-d.example', 'a-b.c-d.example'],
  ])('normalises %s to %s', (raw, domain, hostname) => {
    expect(parseDomainOrigin(raw)).toEqual({ domain, hostname })
  })

  it.each([
    ['go.example.com', 'must start with http:// or https://'],
    ['ftp://go.example.com', 'must start with http:// or https://'],
    ['https://', 'must be an address like https://go.example.com'],
    ['https://go.example.com/path', 'must be a domain only, without a path, query or fragment'],
    ['https://go.example.com?', 'must be a domain only, without a path, query or fragment'],
    ['https://go.example.com/?a=1', 'must be a domain only, without a path, query or fragment'],
    ['https://go.example.com#top', 'must be a domain only, without a path, query or fragment'],
    ['https://user:secret@go.example.com', 'must not contain a user name or password'],
    ['https://go.example.com:8443', 'must not contain a port'],
    ['http://203.0.113.9', 'must be a domain name, not an IP address'],
    ['http://0x7f.1', 'must be a domain name, not an IP address'],
    ['http://[2001:db8::1]', 'must be a domain name, not an IP address'],
    ['https://localhost', 'must be a public domain name, not localhost'],
    ['https://shop.localhost', 'must be a public domain name, not localhost'],
    ['https://*.example.com', 'must be one domain name, not a wildcard'],
    ['https://co.uk', 'must be a domain someone can own: co.uk is a public suffix (like co.uk)'],
    ['https://-bad.example.com', 'must be a fully qualified domain name like go.example.com'],
    ['https://under_score.example.com', 'must be a fully qualified domain name like go.example.com'],
    [`https://${'a'.repeat(64)}.example.com`, 'must be a fully qualified domain name like go.example.com'],
    [`https://${Array.from({ length: 64 }, () => 'abc').join('.')}.com`, 'must be at most 253 characters long'],
  ])('refuses %s: %s', (raw, rule) => {
    let thrown: unknown
    try {
      parseDomainOrigin(raw)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ValidationError)
    expect((thrown as ValidationError).message).toBe(`The field "domain" ${rule}.`)
  })
})
