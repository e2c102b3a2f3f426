// Synthetic traffic spread like real traffic (issue 24): countries and referrers Zipf-distributed
// over 200 and 500 values, 30 browsers, a dozen systems, 3 devices, 40 languages. Used by
// `linkwell dev seed-clicks` and the analytics bench; deterministic for a seed.
import type { AgentDescription } from './visitor-reading.js'

/** A small deterministic generator (mulberry32): the same seed gives the same clicks. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/**
 * Draws positions 0…n-1 with probability ∝ 1 / (rank)^s (Zipf's law; s = 1 is the classic
 * web-traffic shape): a cumulative table and a binary search, O(log n) per draw.
 */
export function zipfSampler(n: number, s = 1): (random: () => number) => number {
  const cumulative = new Float64Array(n)
  let total = 0
  for (let rank = 1; rank <= n; rank += 1) cumulative[rank - 1] = total += 1 / rank ** s
  return (random) => {
    const target = random() * total
    let low = 0
    let high = n - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if (cumulative[middle]! < target) low = middle + 1
      else high = middle
    }
    return low
  }
}

// The most common first; the rest of the 200 are every other region code Intl names, in code order.
const LEADING_COUNTRIES = ['US', 'DE', 'GB', 'IN', 'FR', 'BR', 'CA', 'JP', 'NL', 'ES', 'IT', 'PL', 'AU', 'MX', 'SE', 'CH', 'AT', 'BE', 'TR', 'KR']

function regionCodes(): string[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })
  const codes: string[] = []
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
  for (const first of letters) for (const second of letters) {
    const code = first + second
    try {
      if (names.of(code)) codes.push(code)
    } catch {
      // not a region code
    }
  }
  return codes
}

/** 200 country codes, the most visited first; '' (not located) among them as a real reading gives it. */
export const ZIPF_COUNTRIES: readonly string[] = (() => {
  const rest = regionCodes().filter((code) => !LEADING_COUNTRIES.includes(code) && !/^(?:XA|XB|ZZ|EU|EZ|UN|QO)$/.test(code))
  return [...LEADING_COUNTRIES, '', ...rest].slice(0, 200)
})()

const LEADING_REFERRERS = ['', 'google.com', 'twitter.com', 't.co', 'l.facebook.com', 'instagram.com', 'linkedin.com', 'reddit.com', 'news.ycombinator.com', 'bing.com', 'duckduckgo.com', 'mail.google.com', 'x.com', 'lnkd.in', 'youtube.com', 'tiktok.com']
/** 500 referrer hosts ('' is a direct visit), the most common first. */
export const ZIPF_REFERRERS: readonly string[] = [...LEADING_REFERRERS, ...Array.from({ length: 500 - LEADING_REFERRERS.length }, (_, index) => `site${index + 1}.example`)]

/** 30 browser names as ua-parser-js gives them, the most common first. */
export const ZIPF_BROWSERS: readonly string[] = [
  'Chrome', 'Mobile Safari', 'Safari', 'Edge', 'Firefox', 'Samsung Internet', 'Chrome WebView', 'Opera', 'Facebook', 'Instagram',
  'Yandex', 'UCBrowser', 'Brave', 'Vivaldi', 'DuckDuckGo', 'Mobile Firefox', 'Mobile Chrome', 'Opera Mobi', 'Silk', 'MIUI Browser',
  'Whale', 'QQBrowser', 'Baidu', 'Edge WebView2', 'GSA', 'LinkedIn', 'Snapchat', 'TikTok', 'Puffin', '',
]
/** A dozen systems, the most common first. */
export const ZIPF_SYSTEMS: readonly string[] = ['Windows', 'iOS', 'Android', 'macOS', 'Linux', 'Chrome OS', 'iPadOS', 'Ubuntu', 'HarmonyOS', 'FreeBSD', 'KaiOS', '']
/** The three devices, the most common first. */
export const ZIPF_DEVICES: readonly string[] = ['desktop', 'mobile', 'tablet']
/** 40 languages (primary subtags), the most common first; '' where none was sent. */
export const ZIPF_LANGUAGES: readonly string[] = ['en', 'de', 'es', 'fr', 'pt', 'ja', 'it', 'nl', 'ru', 'pl', 'zh', 'ko', 'tr', 'sv', 'ar', '', 'da', 'fi', 'no', 'cs', 'hu', 'ro', 'el', 'he', 'th', 'vi', 'id', 'uk', 'hi', 'bn', 'fa', 'ms', 'sk', 'bg', 'hr', 'sr', 'sl', 'lt', 'lv', 'et']

/** The dimensions of one synthetic click. */
export interface SyntheticVisit {
  country: string
  referrer: string
  agent: AgentDescription
  language: string
}

/** A source of synthetic visits spread like real traffic, deterministic for `seed`. */
export function createVisitSource(seed: number): { random: () => number; next: () => SyntheticVisit } {
  const random = randomSource(seed)
  const country = zipfSampler(ZIPF_COUNTRIES.length)
  const referrer = zipfSampler(ZIPF_REFERRERS.length)
  const browser = zipfSampler(ZIPF_BROWSERS.length)
  const system = zipfSampler(ZIPF_SYSTEMS.length)
  const device = zipfSampler(ZIPF_DEVICES.length)
  const language = zipfSampler(ZIPF_LANGUAGES.length)
  return {
    random,
    next: () => ({
      country: ZIPF_COUNTRIES[country(random)]!,
      referrer: ZIPF_REFERRERS[referrer(random)]!,
      agent: { browser: ZIPF_BROWSERS[browser(random)]!, os: ZIPF_SYSTEMS[system(random)]!, device: ZIPF_DEVICES[device(random)]! },
      language: ZIPF_LANGUAGES[language(random)]!,
    }),
  }
}
