// GET /healthz reports the database (and Redis when configured): 200 while the database answers.
// GET /readyz answers 503 while either is unreachable, so a load balancer stops sending traffic.
import type { Redis } from 'ioredis'
import { Type } from 'typebox'
import type { App } from './app-instance.js'
import type { DatabaseHandle } from '../db/database.js'
import { pingRedis } from '../redis/ping.js'

const HealthResponse = Type.Object({
  status: Type.String(),
  database: Type.String(),
  redis: Type.Optional(Type.String()),
})

type Probe = 'ok' | 'unreachable'

export function registerHealthRoutes(app: App, database: DatabaseHandle, redis?: Redis): void {
  async function probe(): Promise<{ database: Probe; redis?: Probe }> {
    const [databaseResult, redisResult] = await Promise.allSettled([database.ping(), redis ? pingRedis(redis) : Promise.resolve()])
    return {
      database: databaseResult.status === 'fulfilled' ? 'ok' : 'unreachable',
      ...(redis ? { redis: redisResult.status === 'fulfilled' ? 'ok' : 'unreachable' } : {}),
    }
  }

  const schema = { hide: true, response: { 200: HealthResponse, 503: HealthResponse } }

  app.get('/healthz', { schema }, async (_request, reply) => {
    const state = await probe()
    if (state.database !== 'ok') return reply.code(503).send({ status: 'unavailable', ...state })
    return { status: state.redis === 'unreachable' ? 'degraded' : 'ok', ...state }
  })

  app.get('/readyz', { schema }, async (_request, reply) => {
    const state = await probe()
    const ready = state.database === 'ok' && state.redis !== 'unreachable'
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', ...state })
  })
}
