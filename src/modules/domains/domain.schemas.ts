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

export const DomainListEntry = Type.Object({
  id: Type.Integer(),
  domain: Type.String({ description: 'origin with scheme, e.g. https://go.example.com' }),
  redirectroot: OptionalUrl,
  redirect404: OptionalUrl,
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

export const DomainCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer() })

export type DomainCreateInput = Type.Static<typeof DomainCreateBody>
export type DomainUpdateInput = Type.Static<typeof DomainUpdateBody>
