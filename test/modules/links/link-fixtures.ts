// Records a short link may point at (pixels, campaigns, channels, domains, splash pages, overlays),
// written straight to the database so these tests do not depend on other modules' endpoints.
import { randomBytes } from 'node:crypto'
import type { TestContext } from '../../helpers/test-app.js'
import { nowTimestamp } from '../../../src/core/time.js'

/** Distinct names across test files and dialects. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`
}

export function createFixtures(context: TestContext) {
  const db = context.database.db
  const created_at = nowTimestamp()
  return {
    async pixel(accountId: number): Promise<number> {
      const row = await db.insertInto('pixels').values({ account_id: accountId, type: 'gtmpixel', name: uniqueName('pixel'), tag: `GTM-${randomBytes(3).toString('hex').toUpperCase()}`, created_at }).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    async campaign(accountId: number): Promise<number> {
      const row = await db.insertInto('campaigns').values({ account_id: accountId, name: uniqueName('campaign'), slug: null, is_public: 0, created_at }).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    async channel(accountId: number): Promise<number> {
      const row = await db.insertInto('channels').values({ account_id: accountId, name: uniqueName('channel'), description: '', color: '#112233', starred: 0, created_at }).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    /** A branded domain `https://<random>.example.com`. */
    async domain(accountId: number): Promise<{ id: number; origin: string; hostname: string }> {
      const hostname = `${uniqueName('go')}.example.com`
      const origin = `https://${hostname}`
      const row = await db.insertInto('domains').values({ account_id: accountId, domain: origin, hostname, redirect_root: null, redirect_404: null, created_at }).returning('id').executeTakeFirstOrThrow()
      return { id: row.id, origin, hostname }
    },
    async splashPage(accountId: number): Promise<number> {
      const row = await db.insertInto('splash_pages').values({ account_id: accountId, name: uniqueName('splash'), config: '{}', created_at }).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    async overlay(accountId: number): Promise<number> {
      const row = await db.insertInto('overlays').values({ account_id: accountId, type: 'message', name: uniqueName('overlay'), config: '{}', created_at }).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    async bioPage(accountId: number, alias: string): Promise<number> {
      const row = await db.insertInto('bio_pages').values({ account_id: accountId, alias, name: 'Bio', description: '', avatar: null, blocks: '[]', created_at, updated_at: created_at }).returning('id').executeTakeFirstOrThrow()
      return row.id
    },
    async setCounters(linkId: number, clicks: number, uniqueClicks: number): Promise<void> {
      await db.updateTable('links').set({ clicks, unique_clicks: uniqueClicks }).where('id', '=', linkId).execute()
    },
  }
}

/** A date-time a year from now in the stored form. */
export function nextYear(): string {
  return nowTimestamp(new Date(Date.now() + 365 * 24 * 3600 * 1000))
}
