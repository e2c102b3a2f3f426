// Reading the audit log (who changed what, when, from where) and keeping it to AUDIT_RETENTION_DAYS.
import type { AuditActorFilter, AuditFilters, AuditRepository } from './audit.repository.js'
import type { ActorVia } from '../changes/change-journal.js'
import type { AuditQuery } from './audit.schemas.js'
import { ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { DAY_MS, nowTimestamp, toStoredTimestamp } from '../../core/time.js'

/** `key:12`, `person:3` or a way in (`api`, …), as the query schema lets through. */
function readActor(text: string): AuditActorFilter {
  const [kind, id] = text.split(':')
  if (kind === 'key') return { key: Number(id) }
  if (kind === 'person') return { person: Number(id) }
  return { via: kind as ActorVia }
}

/** A bound of the range as stored text; a date alone is its first (`from`) or last (`to`) second. */
function readBound(field: 'from' | 'to', text: string): string {
  const dateOnly = text.trim().length === 10
  const stored = toStoredTimestamp(text)
  if (!stored) throw ValidationError.field(field, 'is not a real date')
  return dateOnly && field === 'to' ? `${stored.slice(0, 10)} 23:59:59` : stored
}

export function createAuditService(entries: AuditRepository, options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now
  return {
    listEntries(accountId: number, query: AuditQuery, page: PageRequest) {
      const filters: AuditFilters = {
        actor: query.actor === undefined ? undefined : readActor(query.actor),
        resource: query.resource,
        from: query.from === undefined ? undefined : readBound('from', query.from),
        to: query.to === undefined ? undefined : readBound('to', query.to),
      }
      if (filters.from !== undefined && filters.to !== undefined && filters.from > filters.to) {
        throw ValidationError.field('to', 'must not be before "from"')
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
