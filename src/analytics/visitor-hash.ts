// Daily-unique visitors without storing IP addresses: a hash of IP and user agent under a salt
// drawn at random for each UTC day, shared by every instance through the `settings` table and
// deleted with the visitor rows after two days. From then on nobody, not even someone holding the
// database, can tell whose visit a stored hash was.
import { hash, randomBytes } from 'node:crypto'
import type { DB } from '../db/database.js'
import { isUniqueViolation } from '../db/errors.js'

/** How the click writer tells visitors apart: `prepare` the days of a batch, then `hash` each click. */
export interface VisitorHasher {
  prepare(days: Iterable<string>): Promise<void>
  hash(ip: string, userAgent: string, day: string): string
}

/** The settings key of a day's salt; keys sort by day. */
export const SALT_KEY_PREFIX = 'visitor_salt:'

/** sha256 of salt, IP and user agent, 32 URL-safe characters. */
export function hashWithSalt(salt: string, ip: string, userAgent: string): string {
  // The one-shot digest: every recorded click pays for it, and it measured a third of createHash's cost.
  return hash('sha256', `${salt}\n${ip}\n${userAgent}`, 'base64url').slice(0, 32)
}

async function loadOrCreateSalt(db: DB, day: string): Promise<string> {
  const key = `${SALT_KEY_PREFIX}${day}`
  const existing = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst()
  if (existing) return existing.value
  try {
    await db.insertInto('settings').values({ key, value: randomBytes(32).toString('base64url') }).execute()
  } catch (error) {
    // Another instance drew the day's salt first: use theirs.
    if (!isUniqueViolation(error)) throw error
  }
  return (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value
}

/** The production hasher: the day's random salt from the database, kept in memory once read. */
export function createDailySaltHasher(db: DB): VisitorHasher {
  let salts = new Map<string, string>()
  return {
    async prepare(days) {
      const needed = [...new Set(days)]
      // A process running for weeks keeps only the salts it still uses (never dropping one this batch needs).
      if (salts.size + needed.length > 8) salts = new Map(needed.filter((day) => salts.has(day)).map((day) => [day, salts.get(day)!]))
      for (const day of needed) {
        if (!salts.has(day)) salts.set(day, await loadOrCreateSalt(db, day))
      }
    },
    hash(ip, userAgent, day) {
      const salt = salts.get(day)
      if (salt === undefined) throw new Error(`visitor salt of ${day} not prepared`)
      return hashWithSalt(salt, ip, userAgent)
    },
  }
}
