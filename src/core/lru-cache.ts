// A small in-process LRU cache with a per-entry time to live. Map keeps insertion order, so the
// first key is always the least recently used one.

/** How often a cache answered, and how often its owner had to look further (metrics). */
export interface CacheCounts {
  hits: number
  misses: number
}

export interface LruCache<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): void
  delete(key: K): void
  clear(): void
  readonly size: number
}

/**
 * An LRU cache of at most `maxEntries`, each entry valid for `ttlMs`. The clock is read through
 * `Date.now()` at each call (not a reference taken once), so a test's fake clock governs it.
 */
export function createLruCache<K, V>(maxEntries: number, ttlMs: number, now: () => number = () => Date.now()): LruCache<K, V> {
  const entries = new Map<K, { value: V; expiresAt: number }>()
  return {
    get(key) {
      const entry = entries.get(key)
      if (!entry) return undefined
      entries.delete(key)
      if (entry.expiresAt <= now()) return undefined
      entries.set(key, entry)
      return entry.value
    },
    set(key, value) {
      entries.delete(key)
      entries.set(key, { value, expiresAt: now() + ttlMs })
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as K)
    },
    delete(key) {
      entries.delete(key)
    },
    clear() {
      entries.clear()
    },
    get size() {
      return entries.size
    },
  }
}
