// Everything a visitor's request says about them, read in one place (ADR 007) for every use: the
// statistics (browser, OS, device type, language, referrer host and social network of a click),
// targeting (device names and preferred languages a link's rules are matched against), and who is
// not a person (bots, link-preview fetchers, browsers' prefetches). One OS classification and one
// Accept-Language reading, so a visitor counted as a desktop is one a `desktop` rule sends on, and
// the language a click is counted under is the one a language rule is matched against first.
import { isbot } from 'isbot'
import { UAParser } from 'ua-parser-js'
import { memoize } from '../core/memoize.js'
import { isHttpScheme } from '../core/urls.js'

/** Device types as ua-parser-js names them, plus `desktop`, which it leaves unnamed. */
export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet', 'smarttv', 'console', 'wearable', 'xr', 'embedded'] as const

/** Every name deviceNamesOf may give: systems (and Apple's devices), then device types. */
export const DEVICE_NAMES = ['iphone', 'ipad', 'ios', 'android', 'windowsphone', 'windows', 'macos', 'chromeos', 'linux', ...DEVICE_TYPES] as const

export type DeviceName = (typeof DEVICE_NAMES)[number]

/** Browser, OS and device type of a user agent, as the statistics count them; '' where it does not tell. */
export interface AgentDescription {
  browser: string
  os: string
  /** One of DEVICE_TYPES, or '' */
  device: string
}

/** The operating systems a visitor is classified by; `other` for any system neither list names. */
type SystemFamily = 'ios' | 'android' | 'windowsphone' | 'windows' | 'macos' | 'chromeos' | 'linux' | 'unix' | 'other'

// The Linux distributions ua-parser-js 1.x names (its os regexes), besides plain "Linux".
const LINUX_SYSTEMS = /^(?:linux|mint|mageia|vectorlinux|[kxln]?ubuntu|debian|(?:open)?suse|gentoo|arch|slackware|fedora|mandriva|centos|pclinuxos|red ?hat|zenwalk|linpus|raspbian|deepin|manjaro|elementary os|sabayon|linspire)$/i
// Other Unix-like desktop systems it names (FreeBSD, NetBSD, OpenBSD, GhostBSD, Solaris, …).
const UNIX_SYSTEMS = /^(?:[-a-z]{0,5}bsd|dragonfly|(?:open)?solaris|aix|hp-ux|unix|hurd|gnu)$/i

/** Systems whose devices are phones unless the user agent says otherwise. */
const MOBILE_FAMILIES: ReadonlySet<SystemFamily> = new Set(['ios', 'android', 'windowsphone'])
/** Systems whose devices are desktops or laptops unless the user agent says otherwise. */
const DESKTOP_FAMILIES: ReadonlySet<SystemFamily> = new Set(['windows', 'macos', 'chromeos', 'linux', 'unix'])

function familyOf(osName: string, userAgent: string): SystemFamily {
  const name = osName.toLowerCase()
  if (name === 'ios') return 'ios'
  if (name === 'android' || name === 'harmonyos') return 'android'
  // "Windows Phone", "Windows Phone OS", "Windows Mobile" (but not "Windows IoT").
  if (/^windows (?:phone|mobile)\b/.test(name)) return 'windowsphone'
  if (name === 'windows') return 'windows'
  if (name === 'mac os' || name === 'macos') return 'macos'
  if (name === 'chromium os' || name === 'chrome os') return 'chromeos'
  if (LINUX_SYSTEMS.test(name)) return 'linux'
  if (UNIX_SYSTEMS.test(name)) return 'unix'
  // An X11 or Linux browser whose system ua-parser-js cannot name is still a Linux desktop.
  if (!name && /\b(?:x11|linux)\b/i.test(userAgent)) return 'linux'
  return 'other'
}

/** The one classification both answers come from: device names, the device type last ('' when unknown). */
function classify(os: UAParser.IOS, device: UAParser.IDevice, userAgent: string): { names: DeviceName[]; type: string } {
  const model = (device.model ?? '').toLowerCase()
  const appleDevice = model === 'iphone' || model === 'ipod' ? 'iphone' : model === 'ipad' ? 'ipad' : null
  const family = appleDevice ? 'ios' : familyOf(os.name ?? '', userAgent)
  const names: DeviceName[] = []
  if (appleDevice) names.push(appleDevice)
  if (family !== 'unix' && family !== 'other') names.push(family)
  const type = device.type ?? (appleDevice === 'ipad' ? 'tablet' : MOBILE_FAMILIES.has(family) ? 'mobile' : DESKTOP_FAMILIES.has(family) ? 'desktop' : '')
  if ((DEVICE_TYPES as readonly string[]).includes(type)) names.push(type as DeviceName)
  return { names, type }
}

/** Describes a user agent for the statistics, e.g. iPhone Safari → `{browser: 'Mobile Safari', os: 'iOS', device: 'mobile'}`. */
export function describeUserAgent(userAgent: string): AgentDescription {
  const parser = new UAParser(userAgent)
  const os = parser.getOS()
  return {
    browser: (parser.getBrowser().name ?? '').slice(0, 64),
    os: (os.name ?? '').slice(0, 64),
    device: classify(os, parser.getDevice(), userAgent).type.slice(0, 64),
  }
}

/**
 * The device names a user agent answers to in device targeting, most specific first: e.g. an
 * iPhone is `['iphone', 'ios', 'mobile']`, a Windows PC `['windows', 'desktop']`, FreeBSD
 * `['desktop']`. Unknown: `[]`. Parses the system and device only (not the browser): this runs
 * on the redirect path.
 */
export function deviceNamesOf(userAgent: string | undefined): DeviceName[] {
  if (!userAgent) return []
  const parser = new UAParser(userAgent)
  return classify(parser.getOS(), parser.getDevice(), userAgent).names
}

// Codes BCP 47 replaced that older Android and Java browsers still send: a rule for `he` must
// match them, and the statistics count them under one code.
const REPLACED_LANGUAGES: Record<string, string> = { iw: 'he', in: 'id', ji: 'yi', jw: 'jv', mo: 'ro' }

/**
 * The visitor's languages from Accept-Language, best first (by q, ties in header order), as
 * primary language subtags without repeats: two-letter ISO 639-1 codes, or three letters for a
 * language that has none (`fil`; BCP 47 uses the two-letter code wherever one exists, so cutting
 * `fil` to `fi` would make Filipino Finnish). `q=0` means "not wanted" and is left out.
 */
export function preferredLanguagesOf(acceptLanguage: string | undefined): string[] {
  if (!acceptLanguage) return []
  const ranked: { language: string; quality: number; position: number }[] = []
  acceptLanguage.slice(0, 1000).split(',').forEach((part, position) => {
    const [tag = '', ...parameters] = part.trim().split(';')
    const language = tag.trim().toLowerCase()
    if (!/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/.test(language)) return
    const qualityParameter = parameters.map((parameter) => parameter.trim()).find((parameter) => /^q=/i.test(parameter))
    const quality = qualityParameter === undefined ? 1 : Number(qualityParameter.slice(2))
    if (!Number.isFinite(quality) || quality <= 0) return
    const primary = language.split('-', 1)[0]!
    ranked.push({ language: REPLACED_LANGUAGES[primary] ?? primary, quality: Math.min(quality, 1), position })
  })
  ranked.sort((a, b) => b.quality - a.quality || a.position - b.position)
  return [...new Set(ranked.map((entry) => entry.language))]
}

/** The language a click is counted under: the visitor's best (the first of preferredLanguagesOf), else null. */
export function preferredLanguageOf(acceptLanguage: string | undefined): string | null {
  return preferredLanguagesOf(acceptLanguage)[0] ?? null
}


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

// A bot's user agent: many visits repeat a handful of agents, so the list's verdict is remembered.
const isBotAgent = memoize(isbot, 2_000)

/** True for a bot's or a link-preview fetcher's user agent (the one bot list: their visits are not counted, and social cards are shown to these). */
export function isBot(userAgent: string | undefined): boolean {
  return Boolean(userAgent) && isBotAgent(userAgent!)
}

// Which bots get a link's social card instead of the redirect: the fetchers that read a page's
// Open Graph / Twitter tags to draw a link preview (chat apps, social networks, search engines).
// Any other bot (curl, an HTTP library, a monitor) is redirected as before, so scripts following a
// short link keep reaching its destination.
const PREVIEW_FETCHERS = new RegExp(
  [
    'facebookexternalhit', 'facebookcatalog', 'facebot', 'meta-externalagent', 'twitterbot', 'slackbot', 'slack-imgproxy',
    'linkedinbot', 'discordbot', 'whatsapp', 'telegrambot', 'skypeuripreview', 'microsoftpreview', 'teams',
    'pinterest', 'redditbot', 'tumblr', 'mastodon', 'bluesky', 'cardyb', 'vkshare', 'viber', 'snapchat',
    'line-poker', 'kakaotalk-scrap', 'embedly', 'iframely', 'googlebot', 'google-inspectiontool', 'bingbot',
    'bingpreview', 'applebot', 'duckduckbot', 'yandexbot', 'qwantify', 'flipboard', 'nuzzel', 'outbrain',
    'quora link preview', 'bitlybot', 'zoombot', 'mattermost', 'rocket.chat', 'signal',
  ].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
  'i',
)

/** Whether `userAgent` names a link-preview fetcher (the caller has already found it a bot). */
export function isPreviewFetcher(userAgent: string | undefined): boolean {
  return userAgent !== undefined && PREVIEW_FETCHERS.test(userAgent)
}
