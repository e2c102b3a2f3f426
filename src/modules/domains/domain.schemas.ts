// Request and response schemas of the branded-domain endpoints (spec: Branded domains).
import { Type } from 'typebox'
import { Clearable, HttpUrl, listResponse, UpdateBody } from '../../core/schemas.js'

// The shape only; domain-origin.ts applies the rules a pattern cannot (no path, a real hostname).
const Domain = Type.String({
  minLength: 1,
  maxLength: 300,
  pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://',
  errorMessage: 'must be an http or https address like https://go.example.com',
})

// A refused value is reported with HttpUrl's own message (the error handler names the deepest rule).
const RedirectTarget = Clearable(HttpUrl, 'no redirect')

export const DomainCreateBody = Type.Object({
  domain: Domain,
  redirectroot: Type.Optional(RedirectTarget),
  redirect404: Type.Optional(RedirectTarget),
})

/** spec: `domain` itself is not updatable; it is not read from the body. */
export const DomainUpdateBody = UpdateBody({
  redirectroot: Type.Optional(RedirectTarget),
  redirect404: Type.Optional(RedirectTarget),
})

const OptionalUrl = Type.Union([Type.String(), Type.Null()], { description: 'URL, or null when not set' })

const OptionalTime = Type.Union([Type.String(), Type.Null()])

/** Whether the workspace has proven control of the name, and how to (ADR 031). */
const DomainVerification = Type.Object({
  type: Type.Literal('TXT'),
  name: Type.String({ description: 'the DNS name of the TXT record to create: _linkwell.<domain>' }),
  value: Type.String({ description: 'the value the TXT record must hold' }),
  method: Type.Union([Type.Literal('txt'), Type.Literal('http'), Type.Null()], { description: 'how control was proven; null until it is' }),
  verified: Type.Union([Type.String(), Type.Null()], { description: 'when control was proven (UTC)' }),
  checked: Type.Union([Type.String(), Type.Null()], { description: 'when the last check ran (UTC)' }),
  error: Type.Union([Type.String(), Type.Null()], { description: "the last check's finding in words, e.g. no TXT record found at _linkwell.go.example.com" }),
  next: Type.Union([Type.String(), Type.Null()], { description: 'when the next background check runs; null: none (verified, or a week without proof)' }),
})

const DomainCertificate = Type.Object({
  status: Type.Union([Type.Literal('none'), Type.Literal('pending'), Type.Literal('active'), Type.Literal('failed')], {
    description: 'none: not ordered (unverified, or ACME_EMAIL unset); pending: ordered; active: served over https; failed: the last order failed (see error)',
  }),
  expires: OptionalTime,
  error: Type.Union([Type.String(), Type.Null()], { description: "the ACME server's reason for the last failed order" }),
})

/** What issue 43 adds to every domain record (additions: the spec's fields stay as they were). */
const DomainOwnership = {
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('failed')], {
    description: 'pending: not proven yet, checked in the background; verified: control proven; failed: no proof in a week, or another workspace proved control',
  }),
  verification: DomainVerification,
  certificate: DomainCertificate,
}

export const DomainListEntry = Type.Object({
  id: Type.Integer(),
  domain: Type.String({ description: 'origin with scheme, e.g. https://go.example.com' }),
  redirectroot: OptionalUrl,
  redirect404: OptionalUrl,
  ...DomainOwnership,
})

export const DomainResponse = Type.Object({ error: Type.Literal(0), data: DomainListEntry })

export const DomainSetupResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    checked: Type.Boolean({ description: 'false when neither SERVER_IPS nor SERVER_CNAME is set: new domains are not checked by DNS' }),
    ips: Type.Array(Type.String(), { description: 'addresses an A (IPv4) or AAAA (IPv6) record may point to' }),
    cname: Type.Union([Type.String(), Type.Null()], { description: 'the host name a CNAME record may point to' }),
  }),
})

export const DomainDnsQuery = Type.Object({ domain: Domain })

export const DomainDnsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    hostname: Type.String(),
    addresses: Type.Array(Type.String(), { description: 'A and AAAA records found' }),
    cnames: Type.Array(Type.String(), { description: 'CNAME records found' }),
    pointing: Type.Union([Type.Boolean(), Type.Null()], { description: 'whether adding would pass the DNS check; null when the check is off' }),
  }),
})

export const DomainListResponse = listResponse('domains', DomainListEntry)

export const DomainCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer(), ...DomainOwnership })

export type DomainCreateInput = Type.Static<typeof DomainCreateBody>
export type DomainUpdateInput = Type.Static<typeof DomainUpdateBody>
