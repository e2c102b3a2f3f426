// Holders of aliases written straight into their tables: these suites test the namespace, not the
// link and bio page endpoints.
import { randomBytes } from 'node:crypto'
import type { DB } from '../../../src/db/database.js'
import { nowTimestamp } from '../../../src/core/time.js'

/** An alias no other test (file, dialect, run) uses, in mixed case: `Prefix-1a2b3c4d`. */
export function uniqueAlias(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`
}

/** A short link of the account at `alias` on `host` ('' = the main host); answers its id. */
export async function insertLink(db: DB, accountId: number, alias: string, options: { host?: string; url?: string } = {}): Promise<number> {
  const now = nowTimestamp()
  const row = await db
    .insertInto('links')
    .values({ account_id: accountId, host: options.host ?? '', alias, url: options.url ?? 'https://example.com/', targeting: '{}', type: 'direct', clicks: 0, unique_clicks: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** A bio page of the account at `alias` (main host); answers its id. */
export async function insertBioPage(db: DB, accountId: number, alias: string, name = 'Fixture page'): Promise<number> {
  const now = nowTimestamp()
  const row = await db
    .insertInto('bio_pages')
    .values({ account_id: accountId, alias, name, description: '', avatar: null, blocks: '[]', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
