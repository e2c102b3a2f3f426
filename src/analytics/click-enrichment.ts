// What a click is described by in the statistics: browser, OS and device type from the user
// agent, the referrer's host and social network, the visitor's language. Pure functions of the
// request's headers; the recorder applies them off the response path.
import { UAParser } from 'ua-parser-js'

/** Browser, OS and device type of a user agent; '' where it does not tell. */
export interface AgentDescription {
  browser: string
  os: string
  /** desktop | mobile | tablet | smarttv | console | wearable | embedded | '' */
  device: string
}

// Operating systems whose devices are desktops or laptops when the user agent names no device type.
const DESKTOP_SYSTEMS = /^(windows|mac os|macos|chromium os|chrome os|linux|ubuntu|debian|fedora|mint|arch|centos|gentoo|suse|opensuse|red ?hat|manjaro|freebsd|openbsd|netbsd|solaris)\b/i

/** Describes a user agent, e.g. iPhone Safari → `{browser: 'Mobile Safari', os: 'iOS', device: 'mobile'}`. */
export function describeUserAgent(userAgent: string): AgentDescription {
  const { browser, os, device } = new UAParser(userAgent).getResult()
  const osName = (os.name ?? '').slice(0, 64)
  return {
    browser: (browser.name ?? '').slice(0, 64),
    os: osName,
    device: device.type ?? (DESKTOP_SYSTEMS.test(osName) ? 'desktop' : ''),
  }
}

/** The referrer's host name, lower case, without `www.`; null for no (or an unreadable) referrer. */
export function referrerHostOf(referrer: string | undefined): string | null {
  if (!referrer) return null
  try {
    const url = new URL(referrer)
    // Web pages only: `android-app://…` or made-up schemes would add hosts like `123`.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
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

/** The two-letter primary language of the first Accept-Language entry (`fr-CH, fr;q=0.9` → `fr`), else null. */
export function primaryLanguageOf(acceptLanguage: string | undefined): string | null {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim().toLowerCase()
  return first && /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(first) ? first.slice(0, 2) : null
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
