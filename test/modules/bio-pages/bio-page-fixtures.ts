// Data for the bio page tests. Short links are written straight into `links`: these suites test
// that bio aliases and link aliases share one namespace, not the link endpoints.
import { expect } from 'vitest'
import type { ApiClient, TestContext } from '../../helpers/test-app.js'
import { nowTimestamp } from '../../../src/core/time.js'

/** Inserts a short link of the account on `host` ('' = the main host) and answers its id. */
export async function insertLink(context: TestContext, accountId: number, alias: string, host = ''): Promise<number> {
  const now = nowTimestamp()
  const row = await context.database.db
    .insertInto('links')
    .values({ account_id: accountId, host, alias, url: 'https://example.com/', targeting: '{}', type: 'direct', clicks: 0, unique_clicks: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

let aliasCounter = 0

/** An alias no other test of the file uses. */
export function uniqueAlias(prefix = 'bio'): string {
  aliasCounter += 1
  return `${prefix}-${aliasCounter}-${Math.floor(Math.random() * 1e6)}`
}

/** Creates a bio page through the API and answers `{id, url}`. */
export async function createBio(client: ApiClient, body: Record<string, unknown>): Promise<{ id: number; url: string }> {
  const response = await client('POST', '/api/bio/add', body)
  expect(response.statusCode).toBe(201)
  return response.data
}
