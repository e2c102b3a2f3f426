// GET /api/audit: the account's audit log, newest first, filtered by who, what and when (issue 20).
import type { App } from '../../http/app-instance.js'
import type { AuditService } from './audit.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toAuditEntry } from './audit.mapper.js'
import { AuditListResponse, AuditQuery } from './audit.schemas.js'
import { toPageRequest } from '../../core/paging.js'

const tags = ['audit']

/** What the routes use, handed over by app.ts. */
export interface AuditRouteDependencies {
  audit: AuditService
  listEnvelope: ListEnvelope
}

export function registerAuditRoutes(app: App, { audit, listEnvelope }: AuditRouteDependencies): void {
  app.get('/api/audit', {
    schema: {
      tags,
      summary: 'The audit log: who changed what, when and from where',
      description: 'Every change made through the API, the dashboard or the command line, newest first. Written in the change\'s own transaction: no change without its entry.',
      querystring: AuditQuery,
      response: { 200: AuditListResponse, ...errorResponses },
    },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await audit.listEntries(accountOf(request).id, request.query, page)
    return listEnvelope('entries', page, total, rows.map(toAuditEntry))
  })
}
