// The driver errors of SQLite and PostgreSQL, read as what they mean for the caller: a broken
// unique or foreign-key constraint, or a database that cannot be reached right now. Code outside
// db/ asks these questions, never which driver raised the error.

/** True when a driver error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505'
}

/** True when a driver error is a foreign-key violation (a row is still referenced). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503'
}

/**
 * True when PostgreSQL ended a transaction to let another go on: a deadlock it broke (40P01) or a
 * serialization failure (40001). Nothing of it was kept; running the whole transaction again is
 * the cure PostgreSQL's manual gives. (SQLite has one writer at a time: it raises neither.)
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '40P01' || code === '40001'
}

// Connection-level failures: the database is down or unreachable, not the query at fault.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', 'SQLITE_BUSY', 'SQLITE_CANTOPEN'])

/** True when an error means the database cannot be reached right now (answer 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true
  return typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|driver has already been destroyed/i.test(message)
}
