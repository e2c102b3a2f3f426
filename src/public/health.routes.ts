// GET /healthz: 200 once the database answers, 503 otherwise.
import { Type } from 'typebox'
import type { App } from '../app.js'
import type { DatabaseHandle } from '../db/database.js'

const HealthResponse = Type.Object({ status: Type.String(), database: Type.String() })

export function registerHealthRoutes(app: App, database: DatabaseHandle): void {
  app.get('/healthz', { schema: { hide: true, response: { 200: HealthResponse, 503: HealthResponse } } }, async (request, reply) => {
    try {
      await database.ping()
      return { status: 'ok', database: 'ok' }
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database unreachable')
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' })
    }
  })
}
