// Cache invalidation as modules see it: a service announces that a record changed, and every
// instance's caches drop their copies. The bus for one process is here; the one that reaches
// other instances over Redis is in src/redis/invalidation-bus.ts.

/** What changed. Keys: ALIAS (`aliasKey(host, alias)`), DOMAIN (hostname), the others the record id. */
export const ALIAS_TOPIC = 'alias'
export const DOMAIN_TOPIC = 'domain'
export const CAMPAIGN_TOPIC = 'campaign'
/** Overlays, splash pages and pixels are copied into cached links: a change clears them all. */
export const OVERLAY_TOPIC = 'overlay'
export const SPLASH_TOPIC = 'splash'
export const PIXEL_TOPIC = 'pixel'
/** An account, its keys or its plan changed: cached key lookups are dropped (any key). */
export const ACCOUNT_TOPIC = 'account'
/** A hostname's TLS certificate was issued or renewed: every instance loads it (key: hostname). */
export const CERTIFICATE_TOPIC = 'certificate'

export type InvalidationTopic =
  | typeof ALIAS_TOPIC
  | typeof DOMAIN_TOPIC
  | typeof CAMPAIGN_TOPIC
  | typeof OVERLAY_TOPIC
  | typeof SPLASH_TOPIC
  | typeof PIXEL_TOPIC
  | typeof ACCOUNT_TOPIC
  | typeof CERTIFICATE_TOPIC

export type InvalidationListener = (topic: string, key: string) => void

export interface InvalidationBus {
  /** Announces that `key` of `topic` changed; local listeners are told synchronously. */
  publish(topic: InvalidationTopic, key: string): void
  subscribe(listener: InvalidationListener): void
  /** How long a cache may keep an entry without hearing of a change. */
  readonly maxStaleMs: number
  close(): Promise<void>
}

/** A bus for one process only: with several instances, caches must expire within `maxStaleMs`. */
export function createLocalInvalidationBus(maxStaleMs: number): InvalidationBus {
  const listeners: InvalidationListener[] = []
  return {
    publish: (topic, key) => listeners.forEach((listener) => listener(topic, key)),
    subscribe: (listener) => void listeners.push(listener),
    maxStaleMs,
    close: async () => {},
  }
}

/** What a service needs of the bus: announcing its own changes. */
export type Announcer = Pick<InvalidationBus, 'publish'>

/** An announcer that tells nobody, for services used where no cache exists (the CLI's one-off runs). */
export const ANNOUNCE_NOTHING: Announcer = { publish: () => {} }
