// Transactions that compose: a repository method that needs several statements to land together
// opens a transaction, or runs in the one its caller already opened (the change journal's, which
// wraps a service's whole write: modules/changes/change-journal.ts).
// A transaction PostgreSQL ended to break a deadlock (a click batch committing its counters while an
// account's deletion cascades through the same rows, say) is run again, whole, a few times.
import { setTimeout as sleep } from 'node:timers/promises'
import type { DB } from './database.js'
import { isTransactionConflict } from './errors.js'

/** How many times a transaction is tried when PostgreSQL keeps ending it for a conflict. */
export const TRANSACTION_ATTEMPTS = 4

/**
 * Runs `work` in a transaction: `executor`'s own when it is one (its opener retries), else a new
 * one, run again from the start when PostgreSQL ends it for a deadlock or a serialization failure
 * (after a short random wait, so the two sides do not meet again at once). `work` must therefore
 * change nothing outside the transaction before it commits.
 */
export async function inTransaction<T>(executor: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  if (executor.isTransaction) return work(executor)
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await executor.transaction().execute(work)
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(error)) throw error
      await sleep(Math.round(Math.random() * 20 * attempt))
    }
  }
}

/** A repository that can also run its statements on another executor (a transaction). */
export type Bindable<R> = R & {
  /** The same repository on `executor`: every statement runs there. */
  in(executor: DB): R
}

/** Builds `create(db)`, able to rebuild itself on a transaction with `in(trx)`. */
export function bindable<R extends object>(create: (db: DB) => R, db: DB): Bindable<R> {
  return Object.assign(create(db), { in: (executor: DB) => create(executor) })
}
