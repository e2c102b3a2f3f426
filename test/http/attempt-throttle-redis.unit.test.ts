// The attempt throttle on Redis: two instances (two throttles on one Redis) share every count.
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createAttemptThrottle, type ThrottlePolicy } from '../../src/http/attempt-throttle.js'
import { chooseCounterStore, createThrottleFactory } from '../../src/http/throttle.js'
import { connectRedis } from '../../src/redis/connection.js'

const redisUrl = process.env.TEST_REDIS_URL
const POLICY: ThrottlePolicy = { attempts: 4, windowSeconds: 600, firstBlockSeconds: 60, maxBlockSeconds: 3600 }

describe.skipIf(!redisUrl)('attempt throttle on Redis', () => {
  const connections: Redis[] = []
  afterAll(() => connections.forEach((redis) => redis.disconnect()))

  async function instance(prefix: string) {
    const redis = connectRedis(redisUrl!, prefix)
    connections.push(redis)
    await new Promise((resolve) => redis.once('ready', resolve))
    return createAttemptThrottle({ name: 'link-password', perClient: POLICY, perTarget: { ...POLICY, attempts: 100 }, throttles: createThrottleFactory({ store: chooseCounterStore({ redis }) }) })
  }

  it('counts the attempts of every instance together and blocks on all of them', async () => {
    const prefix = `lwtest:${randomBytes(4).toString('hex')}:`
    const [first, second] = [await instance(prefix), await instance(prefix)]
    const keys = { target: 'link:1', client: '10.9.0.1' }
    expect(await first.attempt(keys)).toEqual({ allowed: true })
    expect(await second.attempt(keys)).toEqual({ allowed: true })
    expect(await first.attempt(keys)).toEqual({ allowed: true })
    expect(await second.attempt(keys)).toEqual({ allowed: true })
    expect(await first.attempt(keys)).toEqual({ allowed: false, retryAfterSeconds: 60 })
    expect(await second.attempt(keys)).toMatchObject({ allowed: false })
    // Another client is not held back.
    expect(await second.attempt({ ...keys, client: '10.9.0.2' })).toEqual({ allowed: true })
  })
})
