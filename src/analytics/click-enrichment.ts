// What a click's referrer tells the statistics (its host and social network), and which requests
// are a browser's prefetch rather than a visit: pure functions of the request's headers.
// Browser, OS, device type and language come from visitor-parser.ts, which targeting reads too.
import { isHttpScheme } from '../core/urls.js'

/** The referrer's host name, lower case, without `www.`; null for no (or an unreadable) referrer. */
export function referrerHostOf(referrer: string | undefined): string | null {
  if (!referrer) return null
  try {
    const url = new URL(referrer)
    // Web pages only: `android-app://…` or made-up schemes would add hosts like `123`.
    if (!isHttpScheme(url)) return null
    return url.hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '').slice(0, 255) || null
  } catch {
    return null
  }
}

/** The networks of `socialCount` and the hosts (with their subdomains) that refer from them. */
export const SOCIAL_NETWORKS = {
  facebook: ['facebook.com', 'fb.com', 'fb.me', 'messenger.com'],
  twitter: ['twitter.com', 'x.com', 't.co'],
  instagram: ['instagram.com'],
  linkedin: ['linkedin.com', 'lnkd.in'],
} as const

export type SocialNetwork = keyof typeof SOCIAL_NETWORKS

/** decisions §7: the social network a referrer host belongs to (`l.facebook.com` → facebook), else null. */
export function socialNetworkOf(host: string | null): SocialNetwork | null {
  if (!host) return null
  for (const [network, domains] of Object.entries(SOCIAL_NETWORKS) as [SocialNetwork, readonly string[]][]) {
    if (domains.some((domain) => host === domain || host.endsWith(`.${domain}`))) return network
  }
  return null
}

/**
 * True for a browser's speculative fetch, not a visit: Chrome's prefetch/prerender
 * (`Sec-Purpose`, `Purpose`), Safari's preview (`X-Purpose`), Firefox's (`X-Moz`).
 */
export function isPrefetch(headers: { [name: string]: string | string[] | undefined }): boolean {
  for (const name of ['sec-purpose', 'purpose', 'x-purpose', 'x-moz']) {
    const value = headers[name]
    const text = Array.isArray(value) ? value.join(',') : value
    if (text && /\b(prefetch|prerender|preview)\b/i.test(text)) return true
  }
  return false
}
