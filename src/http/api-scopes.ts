// Which resource each API endpoint belongs to, for keys limited to some resources (issue 13;
// modules/access/api-key-scopes.ts). One table by the path's first segment: an endpoint added
// under a segment nobody listed counts as administration, which no limited key reaches.
import type { ApiKeyResource } from '../modules/access/api-key-scopes.js'

const RESOURCE_OF_SEGMENT: Record<string, ApiKeyResource> = {
  url: 'links',
  urls: 'links',
  // UTM templates are part of building links (issue 23).
  'utm-template': 'links',
  'utm-templates': 'links',
  qr: 'qr',
  // Uploaded files are QR code logos (modules/qr-codes/logo-upload.routes.ts).
  upload: 'qr',
  campaign: 'campaigns',
  campaigns: 'campaigns',
  channel: 'channels',
  channels: 'channels',
  pixel: 'pixels',
  pixels: 'pixels',
  domain: 'domains',
  domains: 'domains',
  overlay: 'overlays',
  splash: 'splash',
  bio: 'bio',
  account: 'account',
  // The keys themselves are the account's.
  key: 'account',
  keys: 'account',
  // The account's own log of who changed what.
  audit: 'account',
  // Links and their clicks out again.
  export: 'links',
  // Reading leads, sales and their reports (issue 39): the links' figures, as exports are; never a publishable key's.
  conversions: 'links',
  // Leads and sales (issue 39): the one resource of a publishable key.
  track: 'track',
}

/** The resource of a matched API route (`/api/url/:id/update` → links); undefined off the API. */
export function resourceOfRoute(routeUrl: string | undefined): ApiKeyResource | 'admin' | undefined {
  const segment = routeUrl && /^\/api\/([^/]+)/.exec(routeUrl)?.[1]
  if (!segment) return undefined
  return RESOURCE_OF_SEGMENT[segment] ?? 'admin'
}

/** Reads change nothing; every other method writes. */
export function isWriteMethod(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD'
}
