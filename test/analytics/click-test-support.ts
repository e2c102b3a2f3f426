// Shared by the click aggregate tests: real browser user agents, a seeded random generator (a
// failing run replays identically), and the recount of every aggregate from the raw clicks table,
// which is the definition the writer must keep.
import { expect } from 'vitest'
import { socialNetworkOf } from '../../src/analytics/visitor-reading.js'
import type { DB } from '../../src/db/database.js'
import { randomSource } from '../../src/analytics/click-seed.js'

export const BROWSERS = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  safariIpad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  samsungAndroid: 'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
} as const

/** Crawlers and link-preview fetchers, plus a missing user agent: never counted. */
export const BOT_AGENTS: (string | undefined)[] = [
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Twitterbot/1.0',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'curl/8.5.0',
  '',
  undefined,
]

/** The public addresses of the load and their countries in the DB-IP database. */
const PUBLIC_COUNTRIES: Record<string, string> = {
  '8.8.8.8': 'US',
  '::ffff:8.8.8.8': 'US',
  '81.2.69.160': 'GB',
  '2a00:1450:4001::1': 'DE',
}

/** About forty distinct addresses: the public ones above, then private and loopback ones. */
export const VISITOR_IPS: string[] = [
  ...Object.keys(PUBLIC_COUNTRIES),
  '127.0.0.1',
  '::1',
  ...Array.from({ length: 16 }, (_, i) => `10.0.${i}.${i + 7}`),
  ...Array.from({ length: 10 }, (_, i) => `192.168.1.${i + 20}`),
  ...Array.from({ length: 4 }, (_, i) => `172.16.${i}.1`),
  ...Array.from({ length: 4 }, (_, i) => `fd00::${i + 1}`),
]

/** The country stored for one of VISITOR_IPS: private and loopback addresses have none. */
export function expectedCountryOf(ip: string): string | null {
  return PUBLIC_COUNTRIES[ip] ?? null
}

/** What ua-parser-js (with the desktop fallback) tells of each browser above. */
export const AGENT_DESCRIPTIONS: Record<string, { browser: string; os: string; device: string }> = {
  [BROWSERS.chromeWindows]: { browser: 'Chrome', os: 'Windows', device: 'desktop' },
  [BROWSERS.safariIphone]: { browser: 'Mobile Safari', os: 'iOS', device: 'mobile' },
  [BROWSERS.safariIpad]: { browser: 'Mobile Safari', os: 'iOS', device: 'tablet' },
  [BROWSERS.firefoxLinux]: { browser: 'Firefox', os: 'Ubuntu', device: 'desktop' },
  [BROWSERS.chromeAndroid]: { browser: 'Chrome', os: 'Android', device: 'mobile' },
  [BROWSERS.edgeWindows]: { browser: 'Edge', os: 'Windows', device: 'desktop' },
  [BROWSERS.safariMac]: { browser: 'Safari', os: 'Mac OS', device: 'desktop' },
  [BROWSERS.samsungAndroid]: { browser: 'Samsung Internet', os: 'Android', device: 'mobile' },
}

/** Referrer header → the host stored for it (lower case, no www., no trailing dot). */
export const REFERRERS: [string | undefined, string | null][] = [
  ['https://www.facebook.com/groups/1/posts/2', 'facebook.com'],
  ['https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.com', 'l.facebook.com'],
  ['https://t.co/AbCdEf', 't.co'],
  ['https://x.com/someone/status/1', 'x.com'],
  ['https://www.instagram.com/', 'instagram.com'],
  ['https://www.linkedin.com/feed/', 'linkedin.com'],
  ['https://lnkd.in/eXyZ', 'lnkd.in'],
  ['https://news.ycombinator.com/item?id=1', 'news.ycombinator.com'],
  ['https://Example.ORG./page', 'example.org'],
  ['https://notfacebook.com/', 'notfacebook.com'],
  // Only web pages are referrers: an app link (or a made-up scheme) counts as direct.
  ['android-app://com.google.android.gm/', null],
  ['x://123', null],
  [undefined, null],
  ['', null],
  ['not a url', null],
  ['http://[::1', null],
]

/** Accept-Language header → the stored language. */
export const LANGUAGES: [string | undefined, string | null][] = [
  ['en-US,en;q=0.9', 'en'],
  ['de-DE', 'de'],
  ['fr-CH, fr;q=0.9, en;q=0.8', 'fr'],
  ['pt-BR,pt;q=0.9', 'pt'],
  ['es', 'es'],
  ['*', null],
  ['garbage!!', null],
  [undefined, null],
]

/** A seeded generator (the seeder's own), so the "random" load is the same on every run. */
export const createRandom = randomSource

export function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!
}

export async function readRawClicks(db: DB) {
  return db.selectFrom('clicks').select(['id', 'item_type', 'item_id', 'created_at', 'referrer_host', 'language', 'visitor_hash', 'country', 'browser', 'os', 'device', 'is_unique']).orderBy('id').execute()
}

type RawClick = Awaited<ReturnType<typeof readRawClicks>>[number]

// Aggregate keys: item, [day,] dimension and value joined by '|' (no stored value holds one here).
function recount(rows: RawClick[]) {
  const days: Record<string, number> = {}
  const totals: Record<string, number> = {}
  const items: Record<string, { clicks: number; unique: number }> = {}
  const add = (counters: Record<string, number>, key: string) => (counters[key] = (counters[key] ?? 0) + 1)
  for (const row of rows) {
    const item = `${row.item_type}|${row.item_id}`
    const counted: [string, string][] = [
      ['clicks', ''],
      ['country', row.country ?? ''],
      ['referrer', row.referrer_host ?? ''],
      ['browser', row.browser ?? ''],
      ['os', row.os ?? ''],
      ['device', row.device ?? ''],
      ['language', row.language ?? ''],
    ]
    if (row.is_unique === 1) counted.push(['unique', ''])
    const social = socialNetworkOf(row.referrer_host)
    if (social) counted.push(['social', social])
    for (const [dimension, value] of counted) {
      add(days, `${item}|${row.created_at.slice(0, 10)}|${dimension}|${value}`)
      add(totals, `${item}|${dimension}|${value}`)
    }
    const counter = (items[item] ??= { clicks: 0, unique: 0 })
    counter.clicks += 1
    counter.unique += row.is_unique
  }
  return { days, totals, items }
}

/** The stored aggregates, keyed like the recount. */
async function readAggregates(db: DB) {
  const days: Record<string, number> = {}
  for (const row of await db.selectFrom('click_days').selectAll().execute()) {
    days[`${row.item_type}|${row.item_id}|${row.day}|${row.dimension}|${row.value}`] = Number(row.clicks)
  }
  const totals: Record<string, number> = {}
  for (const row of await db.selectFrom('click_totals').selectAll().execute()) {
    totals[`${row.item_type}|${row.item_id}|${row.dimension}|${row.value}`] = Number(row.clicks)
  }
  return { days, totals }
}

/**
 * decisions §7: every aggregate row and item counter of the whole database equals the count of
 * the raw clicks it stands for, and no aggregate row exists that no raw click accounts for.
 */
export async function expectAggregatesMatchRaw(db: DB): Promise<void> {
  const raw = recount(await readRawClicks(db))
  const stored = await readAggregates(db)
  expect(stored.days).toEqual(raw.days)
  expect(stored.totals).toEqual(raw.totals)
  const counted = (type: string, id: number) => raw.items[`${type}|${id}`] ?? { clicks: 0, unique: 0 }
  for (const link of await db.selectFrom('links').select(['id', 'clicks', 'unique_clicks']).execute()) {
    expect({ link: link.id, clicks: link.clicks, unique: link.unique_clicks }).toEqual({ link: link.id, ...counted('link', link.id) })
  }
  for (const qr of await db.selectFrom('qr_codes').select(['id', 'scans']).execute()) {
    expect({ qr: qr.id, scans: qr.scans }).toEqual({ qr: qr.id, scans: counted('qr', qr.id).clicks })
  }
  for (const campaign of await db.selectFrom('campaigns').select(['id', 'views']).execute()) {
    expect({ campaign: campaign.id, views: campaign.views }).toEqual({ campaign: campaign.id, views: counted('campaign', campaign.id).clicks })
  }
}
