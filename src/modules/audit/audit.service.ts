// Reading the audit log (who changed what, when, from where) and keeping it to AUDIT_RETENTION_DAYS.
import type { AuditActorFilter, AuditFilters, AuditRepository } from './audit.repository.js'
import type { ActorVia } from '../changes/change-journal.js'
import type { AuditQuery } from './audit.schemas.js'
import type { PageRequest } from '../../core/paging.js'
import { DAY_MS, nowTimestamp, readTimeRange } from '../../core/time.js'

/** `key:12`, `person:3` or a way in (`api`, …), as the query schema lets through. */
function readActor(text: string): AuditActorFilter {
  const [kind, id] = text.split(':')
  if (kind === 'key') return { key: Number(id) }
  if (kind === 'person') return { person: Number(id) }
  return { via: kind as ActorVia }
}

export interface AuditServiceOptions {
  /** The audit rows the change journal writes. */
  entries: AuditRepository
  /** The clock retention counts back from (milliseconds since the epoch); `Date.now` unless given. */
  now?: () => number
}

export function createAuditService(options: AuditServiceOptions) {
  const { entries } = options
  const now = options.now ?? Date.now
  return {
    listEntries(accountId: number, query: AuditQuery, page: PageRequest) {
      const filters: AuditFilters = {
        actor: query.actor === undefined ? undefined : readActor(query.actor),
        resource: query.resource,
        ...readTimeRange(query),
      }
      return entries.listPage(accountId, filters, page)
    },

    /** Deletes every account's entries older than `days` days; answers how many and the cut. */
    async prune(days: number): Promise<{ deleted: number; before: string }> {
      const before = nowTimestamp(new Date(now() - days * DAY_MS))
      return { deleted: await entries.pruneBefore(before), before }
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
