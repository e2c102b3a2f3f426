// SQL for the audit log (the one file that writes `audit_log`): the rows the change journal
// (modules/changes/change-journal.ts) inserts in the change's own transaction; a page of one
// account's entries under filters, newest first, with the name of the key that acted; pruning by age.
import type { DB } from '../../db/database.js'
import type { Page, PageRequest } from '../../core/paging.js'
import { fetchPage } from '../../db/paging.js'
import type { ActorVia, AuditEntryValues } from '../changes/change-journal.js'

/** Who acted: one key, one person, or every change that came one way (API, dashboard, CLI, system). */
export type AuditActorFilter = { key: number } | { person: number } | { via: ActorVia }

export interface AuditFilters {
  actor?: AuditActorFilter
  resource?: string
  /** Stored timestamps, both ends included. */
  from?: string
  to?: string
}

export interface AuditEntryRow {
  id: number
  created_at: string
  via: string
  person_id: number | null
  key_id: number | null
  /** The key's name; null when it acted through no key or has been deleted since. */
  key_name: string | null
  address: string | null
  action: string
  resource: string
  resource_id: number | null
  fields: string
}

export function createAuditRepository(db: DB) {
  return {
    /** Writes the journal's rows for one change's transaction (the account is each row's own). */
    async insert(rows: readonly AuditEntryValues[]): Promise<void> {
      if (rows.length === 0) return
      await db.insertInto('audit_log').values([...rows]).execute()
    },

    async listPage(accountId: number, filters: AuditFilters, page: PageRequest): Promise<Page<AuditEntryRow>> {
      let query = db.selectFrom('audit_log').where('audit_log.account_id', '=', accountId)
      const { actor, resource, from, to } = filters
      if (actor && 'key' in actor) query = query.where('audit_log.key_id', '=', actor.key)
      if (actor && 'person' in actor) query = query.where('audit_log.person_id', '=', actor.person)
      if (actor && 'via' in actor) query = query.where('audit_log.via', '=', actor.via)
      if (resource !== undefined) query = query.where('audit_log.resource', '=', resource)
      if (from !== undefined) query = query.where('audit_log.created_at', '>=', from)
      if (to !== undefined) query = query.where('audit_log.created_at', '<=', to)
      return fetchPage(query, page, (filtered) =>
        filtered
          .leftJoin('api_keys', (join) => join.onRef('api_keys.id', '=', 'audit_log.key_id').onRef('api_keys.account_id', '=', 'audit_log.account_id'))
          .select([
            'audit_log.id', 'audit_log.created_at', 'audit_log.via', 'audit_log.person_id', 'audit_log.key_id', 'api_keys.name as key_name',
            'audit_log.address', 'audit_log.action', 'audit_log.resource', 'audit_log.resource_id', 'audit_log.fields',
          ])
          .orderBy('audit_log.id', 'desc'))
    },

    /** Deletes entries written before `before` (stored timestamp), `chunk` rows at a time; answers how many. */
    async pruneBefore(before: string, chunk = 10_000): Promise<number> {
      let deleted = 0
      for (;;) {
        const result = await db
          .deleteFrom('audit_log')
          .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('created_at', '<', before).limit(chunk))
          .executeTakeFirstOrThrow()
        const count = Number(result.numDeletedRows)
        deleted += count
        if (count < chunk) return deleted
      }
    },
  }
}

export type AuditRepository = ReturnType<typeof createAuditRepository>
