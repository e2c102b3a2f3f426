// A branded domain as clients send it to the form we store and route on: a lower-case http(s)
// origin and its hostname (decisions §6: "an http(s) origin with no path").
import { isIP } from 'node:net'
import { getPublicSuffix } from 'tldts'
import { ValidationError } from '../../core/errors.js'

export interface DomainOrigin {
  /** Scheme and host, lower-case, without port, path or trailing slash: `https://go.example.com`. */
  domain: string
  /** The host alone, matched against the `Host` header of visits. */
  hostname: string
}

// One DNS label after IDNA: letters, digits and inner hyphens, at most 63 characters.
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
const MAX_HOSTNAME_LENGTH = 253

function invalidDomain(rule: string): ValidationError {
  return ValidationError.field('domain', rule)
}

/**
 * Normalises `https://Go.Example.com/` to `{domain: 'https://go.example.com', hostname: 'go.example.com'}`;
 * throws a ValidationError naming `domain` for anything that is not a bare http(s) domain name.
 */
export function parseDomainOrigin(raw: string): DomainOrigin {
  const text = raw.trim()
  if (!/^https?:\/\//i.test(text)) throw invalidDomain('must start with http:// or https://')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalidDomain('must be an address like https://go.example.com')
  }
  if (url.username || url.password) throw invalidDomain('must not contain a user name or password')
  // Visits arrive on the default ports; an origin with a port could never be matched by Host.
  if (url.port) throw invalidDomain('must not contain a port')
  // The URL parser drops an empty `?` or `#`, so the raw text is checked as well.
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(text)) {
    throw invalidDomain('must be a domain only, without a path, query or fragment')
  }
  // WHATWG URL has already lower-cased the host and turned international names into punycode.
  const hostname = url.hostname.replace(/\.$/, '')
  if (hostname.startsWith('[') || isIP(hostname) !== 0) throw invalidDomain('must be a domain name, not an IP address')
  if (hostname.includes('*')) throw invalidDomain('must be one domain name, not a wildcard')
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) throw invalidDomain('must be a public domain name, not localhost')
  if (hostname.length > MAX_HOSTNAME_LENGTH) throw invalidDomain(`must be at most ${MAX_HOSTNAME_LENGTH} characters long`)
  const labels = hostname.split('.')
  if (
    hostname.length > MAX_HOSTNAME_LENGTH ||
    labels.length < 2 ||
    !labels.every((label) => LABEL.test(label)) ||
    /^\d+$/.test(labels[labels.length - 1] ?? '')
  ) {
    throw invalidDomain('must be a fully qualified domain name like go.example.com')
  }
  // A name under which anyone may register (co.uk, github.io): nobody owns it, so nobody can prove control.
  if (getPublicSuffix(hostname, { allowPrivateDomains: true }) === hostname) {
    throw invalidDomain(`must be a domain someone can own: ${hostname} is a public suffix (like co.uk)`)
  }
  return { domain: `${url.protocol}//${hostname}`, hostname }
}
