// Counters that every instance of a deployment shares: the API's rate limits and the throttles of
// sign-in, link passwords and contact forms count in one. The contract is here; the stores are in
// src/redis/shared-counter-store.ts and src/db/shared-counter-store.ts (PostgreSQL), and
// src/http/throttle.ts chooses one and falls back to memory while it fails.
import type { RateLimiterAbstract } from 'rate-limiter-flexible'

/** One kind of counter: its keys' prefix, and how many points a key may use per window. */
export interface CounterSpec {
  /** Prefix of every key of this counter in the store; two counters never share one. */
  keyPrefix: string
  points: number
  durationSeconds: number
}

/** A store of fixed-window counters that every instance reaches. */
export interface SharedCounterStore {
  /** What the store is (`redis`, `postgres`), for log lines. */
  readonly kind: string
  /** A rate-limiter-flexible limiter over this store; its operations reject (not with a RateLimiterRes) while the store fails. */
  limiter(spec: CounterSpec): RateLimiterAbstract
}
