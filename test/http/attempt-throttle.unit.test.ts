// The attempt throttle on its own (memory store): allowance, blocks that double, the client
// counted before the target, successful attempts given back, concurrent attempts counted exactly.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { blockSecondsOf, createAttemptThrottle, type ThrottlePolicy } from '../../src/http/attempt-throttle.js'

const CLIENT: ThrottlePolicy = { attempts: 3, windowSeconds: 600, firstBlockSeconds: 60, maxBlockSeconds: 200 }
const TARGET: ThrottlePolicy = { attempts: 5, windowSeconds: 600, firstBlockSeconds: 60, maxBlockSeconds: 200 }

describe('attempt throttle', () => {
  // Only the clock is faked: the memory store compares expiry times with Date.now().
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'))
  })
  afterEach(() => vi.useRealTimers())
  const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000)
  const throttle = (perTarget = TARGET) => createAttemptThrottle({ name: 'test', perClient: CLIENT, perTarget })

  it('allows the allowance, then blocks with Retry-After, each block of the day twice the last, up to the cap', async () => {
    const subject = throttle({ ...TARGET, attempts: 1000 })
    const keys = { target: 'link:1', client: '10.0.0.1' }
    const waits: number[] = []
    for (let round = 0; round < 4; round += 1) {
      for (let attempt = 0; attempt < CLIENT.attempts; attempt += 1) expect(await subject.attempt(keys)).toEqual({ allowed: true })
      const refused = await subject.attempt(keys)
      expect(refused.allowed).toBe(false)
      if (!refused.allowed) waits.push(refused.retryAfterSeconds)
      // Still blocked halfway through, with the time left.
      advance(refused.allowed ? 0 : refused.retryAfterSeconds / 2)
      expect(await subject.attempt(keys)).toMatchObject({ allowed: false })
      advance(refused.allowed ? 0 : refused.retryAfterSeconds / 2 + 1)
    }
    expect(waits).toEqual([60, 120, 200, 200])
    expect([1, 2, 3, 4].map((strike) => blockSecondsOf(CLIENT, strike))).toEqual([60, 120, 200, 200])
  })

  it('forgets the strikes after a day', async () => {
    const subject = throttle()
    const keys = { target: 'link:1', client: '10.0.0.2' }
    for (let attempt = 0; attempt <= CLIENT.attempts; attempt += 1) await subject.attempt(keys)
    advance(24 * 60 * 60 + 1)
    for (let attempt = 0; attempt < CLIENT.attempts; attempt += 1) await subject.attempt(keys)
    expect(await subject.attempt(keys)).toEqual({ allowed: false, retryAfterSeconds: 60 })
  })

  it('counts a target across clients, but not the attempts a blocked client makes', async () => {
    const subject = throttle()
    // One client hammering: only its allowed attempts reach the target's count.
    for (let attempt = 0; attempt < 50; attempt += 1) await subject.attempt({ target: 'link:7', client: '10.0.1.1' })
    expect(await subject.attempt({ target: 'link:7', client: '10.0.1.2' })).toEqual({ allowed: true })
    expect(await subject.attempt({ target: 'link:7', client: '10.0.1.3' })).toEqual({ allowed: true })
    // Five from several clients: the target is blocked for everyone, other targets are not.
    expect(await subject.attempt({ target: 'link:7', client: '10.0.1.4' })).toEqual({ allowed: false, retryAfterSeconds: 60 })
    expect(await subject.attempt({ target: 'link:7', client: '10.0.1.5' })).toMatchObject({ allowed: false })
    expect(await subject.attempt({ target: 'link:8', client: '10.0.1.5' })).toEqual({ allowed: true })
  })

  it('gives back a successful attempt', async () => {
    const subject = throttle()
    const keys = { target: 'link:2', client: '10.0.0.3' }
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(await subject.attempt(keys)).toEqual({ allowed: true })
      await subject.succeeded(keys)
    }
  })

  it('lets exactly the allowance through when the attempts arrive at once', async () => {
    const subject = throttle()
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => subject.attempt({ target: 'link:3', client: '10.0.0.4' })))
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(CLIENT.attempts)
  })
})
