// @deprecated Left only for test/modules/links/link-aliases.test.ts, which another change is
// editing: it should use createDomain, createBioPage (or insertBioPageRow) and createPixel from
// helpers/factories, and then this file goes.
import { randomBytes } from 'node:crypto'
import type { TestContext } from '../../helpers/test-app.js'
import { insertBioPageRow, insertPixelRow, uniqueName } from '../../helpers/factories.js'
import { nowTimestamp } from '../../../src/core/time.js'

export { uniqueName }

export function createFixtures(context: TestContext) {
  const db = context.database.db
  return {
    pixel: (accountId: number) => insertPixelRow(db, accountId, 'gtmpixel', `GTM-${randomBytes(3).toString('hex').toUpperCase()}`),
    /** A branded domain `https://<random>.example.com`. */
    async domain(accountId: number): Promise<{ id: number; origin: string; hostname: string }> {
      const hostname = `${uniqueName('go')}.example.com`
      const origin = `https://${hostname}`
      const row = await db.insertInto('domains').values({ account_id: accountId, domain: origin, hostname, redirect_root: null, redirect_404: null, created_at: nowTimestamp() }).returning('id').executeTakeFirstOrThrow()
      return { id: row.id, origin, hostname }
    },
    bioPage: async (accountId: number, alias: string) => (await insertBioPageRow(db, accountId, { alias, name: 'Bio' })).id,
  }
}
