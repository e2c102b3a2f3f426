// Transactions that compose: a repository method that needs several statements to land together
// opens a transaction, or runs in the one its caller already opened (the change journal's, which
// wraps a service's whole write: modules/changes/change-journal.ts).
import type { DB } from './database.js'

/** Runs `work` in a transaction: `executor`'s own when it is one, else a new one. */
export function inTransaction<T>(executor: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return executor.isTransaction ? work(executor) : executor.transaction().execute(work)
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
