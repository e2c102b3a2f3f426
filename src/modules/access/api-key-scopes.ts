// What an API key may reach: every endpoint (no scopes, the default), or only some resources,
// and/or reads only. A scoped key lets an integration (a QR printer, a dashboard widget) hold a
// key that cannot touch anything else of the account. Beside the roles (modules/access): the API
// gate checks both on every request, and a session carries full access. `track` alone makes a
// publishable key (issue 39): it records leads and sales, and reaches nothing else.
import { ValidationError } from '../../core/errors.js'

/** The resources a key can be limited to: every API path belongs to one (http/api-scopes.ts). */
export const API_KEY_RESOURCES = ['links', 'qr', 'campaigns', 'channels', 'pixels', 'domains', 'overlays', 'splash', 'bio', 'account', 'track'] as const
export type ApiKeyResource = (typeof API_KEY_RESOURCES)[number]

export interface ApiKeyScope {
  /** The resources the key reaches; null: all of them (and the administration, for admins). */
  resources: ApiKeyResource[] | null
  readOnly: boolean
}

export const FULL_ACCESS: ApiKeyScope = Object.freeze({ resources: null, readOnly: false })

/** The message of decisions' 403 for a key used outside its scope (exact text, issue 13). */
export const OUT_OF_SCOPE_MESSAGE = 'You do not have access to this endpoint with this API key.'

export function isApiKeyResource(value: string): value is ApiKeyResource {
  return (API_KEY_RESOURCES as readonly string[]).includes(value)
}

/** Checks and normalises a list of resource names (deduplicated, in the canonical order). */
export function parseResources(names: readonly string[], field = 'scopes'): ApiKeyResource[] {
  for (const name of names) {
    if (!isApiKeyResource(name)) throw ValidationError.field(field, `must list resources among ${API_KEY_RESOURCES.join(', ')}; "${name}" is not one`)
  }
  if (names.length === 0) throw ValidationError.field(field, 'must name at least one resource, or be left out for full access')
  return API_KEY_RESOURCES.filter((resource) => names.includes(resource))
}

/** The stored form: resources comma-separated (null for all) and read_only 0/1. */
export function toStoredScope(scope: ApiKeyScope): { scopes: string | null; read_only: number } {
  return { scopes: scope.resources === null ? null : scope.resources.join(','), read_only: scope.readOnly ? 1 : 0 }
}

/** Reads the stored form; an unknown name in the column (a newer version's) grants nothing. */
export function fromStoredScope(scopes: string | null, readOnly: number): ApiKeyScope {
  return {
    resources: scopes === null ? null : scopes.split(',').filter(isApiKeyResource),
    readOnly: readOnly === 1,
  }
}

/**
 * Whether a key of `scope` may call an endpoint of `resource` (`admin` for the administration)
 * that reads or writes. A key limited to resources never reaches the administration.
 */
export function scopeAllows(scope: ApiKeyScope, resource: ApiKeyResource | 'admin', write: boolean): boolean {
  if (write && scope.readOnly) return false
  if (scope.resources === null) return true
  return resource !== 'admin' && scope.resources.includes(resource)
}

/** True for a key limited to some resources or to reads: less than its maker's whole say over the account. */
export function isLimited(scope: ApiKeyScope): boolean {
  return scope.resources !== null || scope.readOnly
}

/**
 * The 403's message for a limited key that tries to change how someone signs in (ADR 027): a
 * password or an e-mail address set by an integration's key would make the dashboard its own.
 */
export const CREDENTIALS_REFUSED_MESSAGE = 'A key limited to some resources or to reads cannot change a password or an e-mail address. Use a key without limits, or the dashboard.'

/** True when `inner` grants nothing `outer` does not: what a key may hand to a key it creates. */
export function scopeWithin(inner: ApiKeyScope, outer: ApiKeyScope): boolean {
  if (outer.readOnly && !inner.readOnly) return false
  if (outer.resources === null) return true
  return inner.resources !== null && inner.resources.every((resource) => outer.resources!.includes(resource))
}
