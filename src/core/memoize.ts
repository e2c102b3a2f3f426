// Answers of pure functions of one string, remembered: the redirect path and the click writer
// see the same user agents, referrers, destinations and visitors over and over.

/**
 * Remembers the last answers of `compute`, up to `size` of them (then starts afresh: cheaper than
 * an LRU, and the working set refills at once), for keys of at most `maxKeyLength` characters.
 * `compute` must be a pure function of its key.
 */
export function memoize<T>(compute: (key: string) => T, size: number, maxKeyLength = 1_024): (key: string) => T {
  let cache = new Map<string, T>()
  return (key) => {
    // Keys come from request headers: an oversized one is computed, never kept.
    if (key.length > maxKeyLength) return compute(key)
    const known = cache.get(key)
    if (known !== undefined || cache.has(key)) return known as T
    const value = compute(key)
    if (cache.size >= size) cache = new Map()
    cache.set(key, value)
    return value
  }
}
