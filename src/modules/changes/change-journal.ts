// The change journal: every write a service makes for a client runs through `write`, in one
// transaction with the audit rows that say who changed what (and, through listeners, anything
// else that must land with the change or not at all: the webhooks' outbox). No change without its
// entry, no entry without its change: the audit rows are inserted after the work and before the
// commit, and a failure anywhere rolls all of it back (docs/adr/015-the-change-journal.md).
import type { Insertable } from 'kysely'
import type { DB } from '../../db/database.js'
import type { AuditLogTable } from '../../db/schema.js'
import { inTransaction, type Bindable } from '../../db/transactions.js'
import { nowTimestamp } from '../../core/time.js'

/** How a change reached us. */
export type ActorVia = 'api' | 'dashboard' | 'cli' | 'system'

/** Who acts, for which account (the workspace every record belongs to), and from where. */
export interface Actor {
  /** The account the change is made in (its records, its audit log). */
  id: number
  /** The API key the request carried; null for a session, the CLI or the system. */
  keyId: number | null
  /** The person acting (a session's, or a key's maker); null where there is none. */
  personId: number | null
  via: ActorVia
  /** The client's address (behind TRUSTED_PROXIES, the one they name); null outside HTTP. */
  address: string | null
}

/** One change to one record. */
export interface Change {
  /** `<resource>.<verb>`: `link.created`, `link.updated`, `campaign.link_assigned`, … */
  action: string
  /** `link`, `qr`, `bio`, `campaign`, `channel`, `pixel`, `splash`, `overlay`, `domain`, `account`, `key`, `plan`, … */
  resource: string
  resourceId: number | null
  /** The request fields the change set (names only, never values). */
  fields: readonly string[]
  /** The record as the API shows it after the change (before it, for a deletion), for listeners. */
  record?: unknown
  /** The account whose log records it, when not the actor's (an account the system creates). */
  accountId?: number
}

/** Runs inside the change's transaction, after its audit rows (the webhooks' outbox). */
export type ChangeListener = (trx: DB, actor: Actor, changes: readonly Change[]) => Promise<void>

/** What a journaled write answers: its result and the changes it made (none: nothing is written). */
export interface Journaled<T> {
  result: T
  changes: Change[]
}

/** An audit row as the journal writes it (the table's columns, db/schema.ts). */
export type AuditEntryValues = Insertable<AuditLogTable>

/** Where the journal's rows go: the audit log's repository (audit.repository.ts), bound to the change's transaction. */
export type AuditLogWriter = Bindable<{ insert(rows: readonly AuditEntryValues[]): Promise<void> }>

/** The field names of a request body that were given (undefined ones were not). */
export function givenFields(input: object): string[] {
  return Object.entries(input).filter(([, value]) => value !== undefined).map(([name]) => name)
}

/** An actor of the command line for `accountId` (no key, no address). */
export function commandLineActor(accountId: number): Actor {
  return { id: accountId, keyId: null, personId: null, via: 'cli', address: null }
}

/** The server itself acting for `accountId` (the first start's admin account). */
export function systemActor(accountId: number): Actor {
  return { id: accountId, keyId: null, personId: null, via: 'system', address: null }
}

export interface ChangeJournalOptions {
  db: DB
  /** Writes the audit rows, in the change's transaction. */
  audit: AuditLogWriter
  /** The time a change is recorded at (tests fix it). */
  now?: () => string
}

export function createChangeJournal({ db, audit, now = nowTimestamp }: ChangeJournalOptions) {
  const listeners: ChangeListener[] = []

  async function record(trx: DB, actor: Actor, changes: readonly Change[]): Promise<void> {
    if (changes.length === 0) return
    const at = now()
    await audit.in(trx).insert(changes.map((change) => ({
        account_id: change.accountId ?? actor.id,
        created_at: at,
        via: actor.via,
        person_id: actor.personId,
        key_id: actor.keyId,
        address: actor.address,
        action: change.action,
        resource: change.resource,
        resource_id: change.resourceId,
        fields: JSON.stringify(change.fields),
      })))
    for (const listener of listeners) await listener(trx, actor, changes)
  }

  return {
    /**
     * Runs `work` in a transaction (or the one `db` already is) and records the changes it
     * answers in the same transaction; answers the work's result.
     */
    async write<T>(actor: Actor, work: (trx: DB) => Promise<Journaled<T>>): Promise<T> {
      return inTransaction(db, async (trx) => {
        const { result, changes } = await work(trx)
        await record(trx, actor, changes)
        return result
      })
    },

    /**
     * Runs `work` in a transaction without recording it: only for changes no account makes (the
     * instance's plans, changed from the command line), which have no audit log to go in.
     */
    async writeUnrecorded<T>(work: (trx: DB) => Promise<Journaled<T>>): Promise<T> {
      return inTransaction(db, async (trx) => (await work(trx)).result)
    },

    /** Adds a listener that runs in every change's transaction, after the audit rows; answers how to remove it. */
    listen(listener: ChangeListener): () => void {
      listeners.push(listener)
      return () => {
        const at = listeners.indexOf(listener)
        if (at !== -1) listeners.splice(at, 1)
      }
    },
  }
}

export type ChangeJournal = ReturnType<typeof createChangeJournal>
