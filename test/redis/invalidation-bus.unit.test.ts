// The Redis invalidation bus across a lost connection: it hears announcements again once Redis is
// back, and a bus closed while its subscriber reconnects leaves no unhandled rejection behind (a
// resubscription in flight when the connection closed once ended a CI run: "Connection is closed.").
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALIAS_TOPIC } from '../../src/core/invalidation.js'
import { connectRedis } from '../../src/redis/connection.js'
import { createRedisInvalidationBus } from '../../src/redis/invalidation-bus.js'
import { eventually } from '../helpers/eventually.js'
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js'

const redisUrl = process.env.TEST_REDIS_URL

describe.skipIf(!redisUrl)('the Redis invalidation bus', () => {
  let proxy: TcpProxy
  const unhandled: unknown[] = []
  const record = (reason: unknown) => unhandled.push(reason)

  beforeAll(async () => {
    const target = new URL(redisUrl!)
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379))
    process.on('unhandledRejection', record)
  })
  afterAll(async () => {
    process.off('unhandledRejection', record)
    await proxy.close()
  })

  /** A connection through the proxy, and the bus's subscriber (its duplicate), caught as it is made. */
  function connect(prefix: string): { redis: Redis; subscriber: () => Redis } {
    const redis = connectRedis(`redis://127.0.0.1:${proxy.port}`, prefix)
    redis.on('error', () => {})
    let subscriber: Redis | undefined
    const duplicate = redis.duplicate.bind(redis)
    redis.duplicate = (...args: Parameters<Redis['duplicate']>) => (subscriber = duplicate(...args))
    return { redis, subscriber: () => subscriber! }
  }

  it('hears another instance again after the connection was cut, and closes cleanly while reconnecting', async () => {
    const prefix = `lwtest:${randomBytes(4).toString('hex')}:`
    const listener = connect(prefix)
    const bus = createRedisInvalidationBus(listener.redis, 60_000)
    const heard: string[] = []
    bus.subscribe((topic, key) => heard.push(`${topic}:${key}`))
    // Another instance's connection, straight to Redis: its announcements reach this bus.
    const other = connectRedis(redisUrl!, prefix)
    const otherBus = createRedisInvalidationBus(other, 60_000)
    try {
      await eventually(async () => (otherBus.publish(ALIAS_TOPIC, 'a'), heard.includes('alias:a')), Boolean)

      await proxy.cut()
      await proxy.restore()
      await eventually(async () => (otherBus.publish(ALIAS_TOPIC, 'b'), heard.includes('alias:b')), Boolean)

      // Cut again and close the bus the moment its subscriber is ready, before Redis answers the
      // resubscription: the subscription in flight fails with "Connection is closed.".
      const subscriber = listener.subscriber()
      const closedAtReady = new Promise<void>((resolve) => subscriber.once('ready', () => void bus.close().then(resolve)))
      await proxy.cut()
      await proxy.restore()
      await closedAtReady
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(unhandled).toEqual([])
    } finally {
      await bus.close()
      await otherBus.close()
      listener.redis.disconnect()
      other.disconnect()
    }
  })
})
