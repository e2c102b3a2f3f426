// Daily-unique visitors without storing IP addresses: a hash of IP and user agent under a salt
// that changes every UTC day, derived from a server secret kept in the database.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import type { DB } from '../db/database.js'
import { isUniqueViolation } from '../db/dialect.js'

const SECRET_KEY = 'visitor_hash_secret'

/** Reads the server's visitor-hash secret, creating it on first use (every instance shares it). */
export async function loadVisitorSecret(db: DB): Promise<string> {
  const existing = await db.selectFrom('settings').select('value').where('key', '=', SECRET_KEY).executeTakeFirst()
  if (existing) return existing.value
  try {
    await db.insertInto('settings').values({ key: SECRET_KEY, value: randomBytes(32).toString('base64url') }).execute()
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
  }
  const created = await db.selectFrom('settings').select('value').where('key', '=', SECRET_KEY).executeTakeFirstOrThrow()
  return created.value
}

/** Builds `hash(ip, userAgent, day)`; the day's salt is HMAC(secret, day), cached per day. */
export function createVisitorHasher(secret: string) {
  let saltDay = ''
  let salt = ''
  return (ip: string, userAgent: string, day: string): string => {
    if (day !== saltDay) {
      saltDay = day
      salt = createHmac('sha256', secret).update(day).digest('base64url')
    }
    return createHash('sha256').update(`${salt}\n${ip}\n${userAgent}`).digest('base64url').slice(0, 32)
  }
}
