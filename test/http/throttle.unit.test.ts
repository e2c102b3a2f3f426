// The throttle factory on a store that can be switched off: while the shared store fails every
// counter counts in memory (a weaker limit, never none), the failure and the recovery are told
// once whichever counter noticed, and the first call the store answers again ends the fallback.
import { Redis } from 'ioredis'
import { RateLimiterMemory, type IRateLimiterOptions, type RateLimiterRes } from 'rate-limiter-flexible'
import { describe, expect, it } from 'vitest'
import type { CounterSpec, SharedCounterStore } from '../../src/core/shared-counters.js'
import { chooseCounterStore, createThrottleFactory, type StoreState } from '../../src/http/throttle.js'

/** A limiter over memory that stands for a shared store, and fails every operation while `store.down`. */
class SwitchableLimiter extends RateLimiterMemory {
  constructor(
    options: IRateLimiterOptions,
    private readonly store: FakeStore,
  ) {
    super(options)
  }

  private check(key: string | number): void {
    if (this.store.down) throw new Error('store unreachable')
    this.store.keys.add(`${this.keyPrefix}:${key}`)
  }

  override async consume(key: string | number, points?: number): Promise<RateLimiterRes> {
    this.check(key)
    return super.consume(key, points)
  }

  override async penalty(key: string | number, points?: number): Promise<RateLimiterRes> {
    this.check(key)
    return super.penalty(key, points)
  }

  override async reward(key: string | number, points?: number): Promise<RateLimiterRes> {
    this.check(key)
    return super.reward(key, points)
  }

  override async block(key: string | number, seconds: number): Promise<RateLimiterRes> {
    this.check(key)
    return super.block(key, seconds)
  }

  override async delete(key: string | number): Promise<boolean> {
    this.check(key)
    return super.delete(key)
  }
}

class FakeStore implements SharedCounterStore {
  readonly kind = 'fake'
  down = false
  /** Every key the store was asked about, with its counter's prefix. */
  readonly keys = new Set<string>()

  limiter(spec: CounterSpec) {
    return new SwitchableLimiter({ keyPrefix: spec.keyPrefix, points: spec.points, duration: spec.durationSeconds }, this)
  }
}

function factoryOn(store: FakeStore) {
  const reports: StoreState[] = []
  const throttles = createThrottleFactory({ store, onStoreStateChange: (state) => reports.push(state) })
  return { throttles, reports }
}

describe('throttle factory', () => {
  it('counts in memory without a store', async () => {
    const counter = createThrottleFactory().counter({ name: 'memory', points: 2, windowSeconds: 60 })
    expect(await counter.consume('k')).toMatchObject({ allowed: true, consumed: 1 })
    expect(await counter.consume('k')).toMatchObject({ allowed: true, consumed: 2 })
    const refused = await counter.consume('k')
    expect(refused).toMatchObject({ allowed: false, consumed: 3 })
    expect(refused.msBeforeReset).toBeGreaterThan(59_000)
    expect(refused.msBeforeReset).toBeLessThanOrEqual(60_000)
  })

  it('counts in memory while the store fails, tells it once for all counters, and shares again once it answers', async () => {
    const store = new FakeStore()
    const { throttles, reports } = factoryOn(store)
    const first = throttles.counter({ name: 'first', points: 3, windowSeconds: 60 })
    const second = throttles.counter({ name: 'second', points: 3, windowSeconds: 60 })

    expect(await first.consume('k')).toMatchObject({ allowed: true, consumed: 1 })
    expect(store.keys).toContain('first:k')

    store.down = true
    // Counted on this instance alone, from zero: a weaker limit, never none.
    expect(await first.consume('k')).toMatchObject({ allowed: true, consumed: 1 })
    expect(await first.consume('k')).toMatchObject({ allowed: true, consumed: 2 })
    expect(await second.consume('k')).toMatchObject({ allowed: true, consumed: 1 })
    expect(await first.consume('k')).toMatchObject({ allowed: true, consumed: 3 })
    expect(await first.consume('k')).toMatchObject({ allowed: false, consumed: 4 })
    expect(reports).toEqual(['failed'])

    store.down = false
    // The store's own count again: one before the failure, this one now.
    expect(await first.consume('k')).toMatchObject({ allowed: true, consumed: 2 })
    expect(await second.consume('k')).toMatchObject({ allowed: true, consumed: 1 })
    expect(reports).toEqual(['failed', 'recovered'])

    store.down = true
    await second.consume('k')
    expect(reports).toEqual(['failed', 'recovered', 'failed'])
  })

  it('falls back for every operation, not only counting', async () => {
    const store = new FakeStore()
    const { throttles, reports } = factoryOn(store)
    const counter = throttles.counter({ name: 'ops', points: 2, windowSeconds: 60 })
    store.down = true
    await counter.consume('k')
    await counter.reward('k')
    expect(await counter.consume('k')).toMatchObject({ consumed: 1 })
    expect(await counter.penalty('k')).toBe(2)
    await counter.block('k', 30)
    const blocked = await counter.consume('k')
    expect(blocked.allowed).toBe(false)
    expect(blocked.msBeforeReset).toBeGreaterThan(29_000)
    expect(blocked.msBeforeReset).toBeLessThanOrEqual(30_000)
    await counter.delete('k')
    expect(await counter.consume('k')).toMatchObject({ allowed: true, consumed: 1 })
    expect(reports).toEqual(['failed'])
    expect(store.keys.size).toBe(0)
  })

  it('takes a refusal from the store as its answer, not as a failure', async () => {
    const store = new FakeStore()
    const { throttles, reports } = factoryOn(store)
    const counter = throttles.counter({ name: 'strict', points: 1, windowSeconds: 60 })
    expect((await counter.consume('k')).allowed).toBe(true)
    expect((await counter.consume('k')).allowed).toBe(false)
    expect((await counter.consume('k')).allowed).toBe(false)
    expect(reports).toEqual([])
  })

  it('counts a key too long for a store by its digest, each long key apart', async () => {
    const store = new FakeStore()
    const counter = factoryOn(store).throttles.counter({ name: 'long', points: 1, windowSeconds: 60 })
    const login = `login:${'x'.repeat(254)}`
    expect((await counter.consume(login)).allowed).toBe(true)
    expect((await counter.consume(login)).allowed).toBe(false)
    expect((await counter.consume(`${login}y`)).allowed).toBe(true)
    expect([...store.keys].every((key) => key.length < 100)).toBe(true)
    expect(store.keys.size).toBe(2)
    // Short keys are stored as they are, readable in the store.
    await counter.consume('10.0.0.1')
    expect(store.keys).toContain('long:10.0.0.1')
  })

  it('chooses Redis when configured, else the database\'s store, else none', () => {
    const databaseStore = new FakeStore()
    // Never connects: choosing a store sends nothing.
    const redis = new Redis({ lazyConnect: true })
    expect(chooseCounterStore({ redis, database: { sharedCounters: databaseStore } })?.kind).toBe('redis')
    redis.disconnect()
    expect(chooseCounterStore({ database: { sharedCounters: databaseStore } })).toBe(databaseStore)
    expect(chooseCounterStore({ database: {} })).toBeUndefined()
    expect(chooseCounterStore({})).toBeUndefined()
  })
})
