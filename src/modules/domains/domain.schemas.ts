// Request and response schemas of the branded-domain endpoints (spec: Branded domains).
import { Type } from 'typebox'
import { HttpUrl, listResponse } from '../../core/schemas.js'

// The shape only; domain-origin.ts applies the rules a pattern cannot (no path, a real hostname).
const Domain = Type.String({
  minLength: 1,
  maxLength: 300,
  pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://',
  errorMessage: 'must be an http or https address like https://go.example.com',
})

// An empty string means "no redirect" (and clears one on update). A refused value is reported
// with HttpUrl's own message (the error handler names the deepest rule).
const RedirectTarget = Type.Union([HttpUrl, Type.Literal('')])

export const DomainCreateBody = Type.Object({
  domain: Domain,
  redirectroot: Type.Optional(RedirectTarget),
  redirect404: Type.Optional(RedirectTarget),
})

/** spec: `domain` itself is not updatable; it is not read from the body. */
export const DomainUpdateBody = Type.Object({
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

export const DomainListResponse = listResponse('domains', DomainListEntry)

export const DomainCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer() })

export type DomainCreateInput = Type.Static<typeof DomainCreateBody>
export type DomainUpdateInput = Type.Static<typeof DomainUpdateBody>
