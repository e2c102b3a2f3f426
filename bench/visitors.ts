// Visitors as varied as real traffic, for the redirect and memory benchmarks: a pool of public
// IPv4 addresses (sent as X-Forwarded-For from a trusted proxy), 8 browsers, referrers and
// languages, so enrichment, visitor hashing and the aggregates all do real work.
import { BROWSER_USER_AGENTS } from '../src/analytics/click-seed.js'

const USER_AGENTS = BROWSER_USER_AGENTS
const REFERRERS = ['', 'https://www.google.com/', 'https://l.facebook.com/l.php', 'https://t.co/x1', 'https://www.instagram.com/', 'https://news.ycombinator.com/item?id=1', 'https://www.linkedin.com/feed/']
const LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.5', 'fr-FR,fr;q=0.9', 'es-ES,es;q=0.8', 'ja-JP,ja;q=0.9']

/** Headers of the n-th request: one of `ips` visitors (a deterministic walk, with repeats). */
export function visitorHeaders(ips = 20_000): (n: number) => Record<string, string> {
  return (n) => {
    // A multiplicative hash spreads consecutive requests over the pool of addresses.
    const visitor = Math.imul(n, 2_654_435_761) >>> 0
    const address = visitor % ips
    const headers: Record<string, string> = {
      'x-forwarded-for': `${(address % 200) + 23}.${(address >> 3) % 250}.${(address >> 7) % 250}.${(address % 250) + 1}`,
      'user-agent': USER_AGENTS[address % USER_AGENTS.length]!,
      'accept-language': LANGUAGES[address % LANGUAGES.length]!,
    }
    const referrer = REFERRERS[visitor % REFERRERS.length]!
    if (referrer) headers.referer = referrer
    return headers
  }
}
