// Parameters merged into a URL's query as a visit merges a link's UTM parameters (issue 23,
// ADR 020). Pure text work with no import, so that the dashboard's link builder previews the very
// destination a visitor gets by importing this file (web/src/links/utm.ts) instead of a copy.
// Also the one reading of a URL's text the server needs elsewhere: its path, and escapes decoded
// as sent when they are malformed (the logger, the hooks' route path, the visitors' routes).

/** `text` percent-decoded, or as it was sent when it holds no valid escape. */
export function decodedOrAsSent(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The query-name of a parameter (`name=value`) as decoded (`+` is a space), or the raw text when it is no valid escape. */
export function decodedName(pair: string): string {
  const equals = pair.indexOf('=')
  return decodedOrAsSent((equals === -1 ? pair : pair.slice(0, equals)).replace(/\+/g, ' '))
}

/** The path of a request URL (`/a/b?x=1` → `/a/b`), as sent. */
export function pathOfUrl(url: string): string {
  const queryAt = url.indexOf('?')
  return queryAt === -1 ? url : url.slice(0, queryAt)
}

/**
 * `url` with `parameters` ([name, value], values escaped here) in its query: a parameter of the
 * same name is replaced where it first stands (later repeats of it dropped), the others are added
 * at the end in the order given; every other parameter and the fragment are kept as written.
 */
export function withQueryParameters(url: string, parameters: readonly (readonly [string, string])[]): string {
  if (parameters.length === 0) return url
  const wanted = new Map<string, string[]>()
  for (const [name, value] of parameters) wanted.set(name, [`${name}=${encodeURIComponent(value)}`])
  return mergedQuery(url, wanted)
}

/**
 * `url` with each named parameter's pairs standing where that name first stands in its query (the
 * name's later repeats dropped), the names it lacks added at the end in the map's order; every other
 * pair and the fragment kept as written.
 */
function mergedQuery(url: string, replacements: ReadonlyMap<string, readonly string[]>): string {
  const hashAt = url.indexOf('#')
  const fragment = hashAt === -1 ? '' : url.slice(hashAt)
  const beforeFragment = hashAt === -1 ? url : url.slice(0, hashAt)
  const queryAt = beforeFragment.indexOf('?')
  const base = queryAt === -1 ? beforeFragment : beforeFragment.slice(0, queryAt)
  const query = queryAt === -1 ? '' : beforeFragment.slice(queryAt + 1)
  const placed = new Set<string>()
  const pairs: string[] = []
  if (query !== '') {
    for (const pair of query.split('&')) {
      const name = decodedName(pair)
      const replacement = replacements.get(name)
      if (replacement === undefined) pairs.push(pair)
      else if (!placed.has(name)) {
        pairs.push(...replacement)
        placed.add(name)
      }
    }
  }
  for (const [name, replacement] of replacements) if (!placed.has(name)) pairs.push(...replacement)
  return `${base}?${pairs.join('&')}${fragment}`
}

/** The query of a request URL (`/a?x=1` → `x=1`), '' when it has none. */
export function queryOfUrl(url: string): string {
  const queryAt = url.indexOf('?')
  return queryAt === -1 ? '' : url.slice(queryAt + 1)
}

// What a URL's query may hold as sent: printable ASCII but `#` (which would start a fragment).
const UNSAFE_QUERY_CHARACTER = /[^\x21-\x22\x24-\x7e]/g

/** A pair of a visitor's query with what a Location header and a query cannot hold percent-encoded. */
function safePair(pair: string): string {
  return pair.replace(UNSAFE_QUERY_CHARACTER, (character) => {
    const code = character.charCodeAt(0)
    // Node reads a request line's bytes one to a character: each is written back as the byte it was.
    return code <= 0xff ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(character)
  })
}

/**
 * `url` with a visitor's own query (`visitorQuery`, as sent) merged in (query-string passthrough,
 * ADR 034): a parameter the destination already has takes the visitor's value(s) where it first
 * stands in the destination (its later repeats dropped), so the destination's order is kept; the
 * visitor's other parameters follow at the end in the visitor's order. The fragment is kept. A
 * link's UTM parameters are merged after this (withQueryParameters), so they win over both.
 */
export function withVisitorQuery(url: string, visitorQuery: string): string {
  const visitorPairs = new Map<string, string[]>()
  for (const pair of visitorQuery.split('&')) {
    if (pair === '' || pair === '=') continue
    const name = decodedName(pair)
    const pairs = visitorPairs.get(name)
    if (pairs) pairs.push(safePair(pair))
    else visitorPairs.set(name, [safePair(pair)])
  }
  if (visitorPairs.size === 0) return url
  return mergedQuery(url, visitorPairs)
}
