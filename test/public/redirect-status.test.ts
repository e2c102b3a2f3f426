// REDIRECT_STATUS chooses between 302 (default) and 301 for a short link's own redirect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, createTestApp, type TestContext } from '../helpers/test-app.js'
import { insertLink, visit } from './redirect-test-support.js'

describe.each([
  ['by default', {}, 302],
  ['with REDIRECT_STATUS=301', { REDIRECT_STATUS: '301' }, 301],
])('a short link’s redirect %s', (_label, env, status) => {
  let context: TestContext
  let alias: string

  beforeAll(async () => {
    context = await createTestApp({ env })
    alias = (await insertLink(context.database.db, (await createAccount(context)).id, { url: 'https://example.com/permanent' })).alias
  })
  afterAll(() => context.close())

  it(`answers ${status}`, async () => {
    const response = await visit(context.app, `/${alias}`)
    expect(response.statusCode).toBe(status)
    expect(response.headers.location).toBe('https://example.com/permanent')
  })
})
