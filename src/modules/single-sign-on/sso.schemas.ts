// Request and response schemas of single sign-on (ADR 033): the sign-in page's providers, a
// workspace's settings (requirement, group mapping) and the providers the administrator keeps.
import { Type, type Static } from 'typebox'
import { Id } from '../../core/schemas.js'

const RoleName = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')], { errorMessage: 'must be owner, admin, editor or viewer' })
const ProviderName = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,31}$', description: 'lower-case letters, digits and dashes', errorMessage: 'must be 1 to 32 lower-case letters, digits and dashes' })

export const StartQuery = Type.Object({
  provider: Type.Optional(Type.String({ maxLength: 64, description: 'the provider\'s name, when the instance has several' })),
})

/** The callback's query: read by the service, so that a missing or odd value gets the page that explains it. */
export const CallbackQuery = Type.Object({}, { additionalProperties: Type.String({ maxLength: 4096 }) })

export const ProviderListResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Array(Type.Object({
    name: Type.String({ description: 'what `?provider=` names it by' }),
    label: Type.String({ description: 'the button\'s text after "Sign in with"' }),
    available: Type.Boolean({ description: 'false when the provider does not answer now' }),
    start: Type.String({ description: 'where the button sends the browser' }),
  })),
})

const MappingEntry = Type.Object({
  group: Type.String({ minLength: 1, maxLength: 200, description: 'a group as the provider names it in the group claim', errorMessage: 'must be 1 to 200 characters' }),
  role: RoleName,
})

export const WorkspaceSsoBody = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 64, description: 'the provider whose groups map to roles here (`default`: OIDC_ISSUER\'s)', errorMessage: 'must name a provider' }),
  required: Type.Boolean({ description: 'members sign in with the provider; their passwords no longer open this workspace (the instance administrator\'s does, and is audited)', errorMessage: 'must be true or false' }),
  mapping: Type.Array(MappingEntry, { maxItems: 100, description: 'groups and the role each gives; the highest applies; a member in none of them is removed at their next sign-in or recheck' }),
})
export type WorkspaceSsoInput = Static<typeof WorkspaceSsoBody>

export const WorkspaceSsoResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    provider: Type.Union([Type.String(), Type.Null()], { description: 'null: not set up' }),
    required: Type.Boolean(),
    mapping: Type.Array(MappingEntry),
    providers: Type.Array(Type.Object({ name: Type.String(), label: Type.String() }), { description: 'the instance\'s providers to choose from' }),
  }),
})

export const ProviderBody = Type.Object({
  name: ProviderName,
  label: Type.String({ minLength: 1, maxLength: 64, errorMessage: 'must be 1 to 64 characters' }),
  issuer: Type.String({ minLength: 1, maxLength: 500, pattern: '^https?://', description: 'the issuer URL (its /.well-known/openid-configuration is read)', errorMessage: 'must be the provider\'s issuer URL' }),
  clientid: Type.String({ minLength: 1, maxLength: 500, errorMessage: 'must be the client id registered at the provider' }),
  clientsecret: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'required on creation; left out on update keeps the stored one', errorMessage: 'must be the client secret' })),
  groupclaim: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'the claim that lists groups (default `groups`)', errorMessage: 'must be 1 to 100 characters' })),
  alloweddomains: Type.Optional(Type.String({ maxLength: 2000, description: 'comma-separated e-mail domains whose people are created at first sign-in', errorMessage: 'must be a comma-separated list of domains' })),
})
export type ProviderInput = Static<typeof ProviderBody>

const ProviderRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  label: Type.String(),
  issuer: Type.String(),
  clientid: Type.String(),
  groupclaim: Type.String(),
  alloweddomains: Type.String(),
  created: Type.String(),
})
export type ProviderRecordType = Static<typeof ProviderRecord>

export const ProviderResponse = Type.Object({ error: Type.Literal(0), data: ProviderRecord })
export const ProviderAdminListResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    providers: Type.Array(ProviderRecord),
    configured: Type.Union([Type.Object({ issuer: Type.String(), clientid: Type.String(), alloweddomains: Type.String() }), Type.Null()], { description: 'the provider OIDC_ISSUER configures (not editable here)' }),
    callback: Type.String({ description: 'the redirect URI to register at each provider' }),
  }),
})
export const ProviderIdParams = Type.Object({ id: Id })
