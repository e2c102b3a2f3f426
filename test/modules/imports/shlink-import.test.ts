// Shlink imported from its own database, PostgreSQL (a schema of the test's own), MariaDB (tables
// under a prefix of the test's own, as Shlink's table prefix names them) and a SQLite file: the
// tables as Shlink's Doctrine mappings define them (shlinkio/shlink
// module/Core/config/entities-mappings/: ShortUrl, Domain, Tag, Visit, VisitLocation), filled,
// imported and compared: links with their domains, titles and tags, redirects, click totals.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, useTestApp, type TestAccount } from '../../helpers/test-app.js'
import { createDomain } from '../../helpers/factories.js'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { shlinkRows, shlinkTables } from './source-schemas.js'
import { MYSQL_URL, openScratchSource, POSTGRES_URL, totalsOf, type ScratchKind, type ScratchSource } from './source-databases.js'

const KINDS: ScratchKind[] = ['sqlite', ...(POSTGRES_URL ? ['postgres' as const] : []), ...(MYSQL_URL ? ['mysql' as const] : [])]

describe.each(KINDS)('Shlink import from %s', (kind) => {
  const { context } = useTestApp()
  let source: ScratchSource
  let account: TestAccount
  let host: string
  const p = `s${kind[0]}-`
  const t = (name: string) => `${source.prefix}${name}`

  beforeAll(async () => {
    account = await createAccount(context)
    host = (await createDomain(context, account)).hostname
    source = await openScratchSource(kind)
    await source.exec(shlinkTables(kind, t))
    await source.exec(shlinkRows(kind, t, p, host))
  })
  afterAll(() => source?.drop())

  const importOnce = (url = source.url, prefix = source.prefix) =>
    context.services.imports.importDatabase(commandLineActor(account.id), 'shlink', { url, prefix, onconflict: 'skip' })
  const fileHash = () => (source.file ? createHash('sha256').update(readFileSync(source.file)).digest('hex') : '')

  it('imports short URLs with domains, titles and tags, and visits so that totals equal Shlink\'s, nothing twice', async () => {
    const before = fileHash()
    const job = await importOnce()
    expect(job).toMatchObject({ state: 'done', links_created: 2, rows_skipped: 1, clicks_imported: 4 })
    expect(fileHash()).toBe(before)
    const db = context.database.db
    const links = await db.selectFrom('links').select(['id', 'alias', 'url', 'title', 'created_at', 'clicks', 'domain_id']).where('account_id', '=', account.id).orderBy('alias').execute()
    expect(links.map(({ id: _id, domain_id, ...link }) => ({ ...link, branded: domain_id !== null }))).toEqual([
      { alias: `${p}one`, url: 'https://example.com/one', title: 'One', created_at: '2022-01-02 03:04:05', clicks: 3, branded: false },
      { alias: `${p}two`, url: 'https://example.com/two', title: null, created_at: '2022-02-03 04:05:06', clicks: 1, branded: true },
    ])
    expect(await context.services.tags.namesOfOne('link', links[0]!.id)).toEqual(['print', 'spring'])
    expect(await context.services.tags.namesOfOne('link', links[1]!.id)).toEqual(['spring'])
    expect(await totalsOf(db, links[0]!.id)).toEqual({
      country: { US: 1, DE: 1, '': 1 },
      referrer: { 'google.com': 1, '': 1, 't.co': 1 },
      browser: { Chrome: 2, 'Mobile Safari': 1 },
      os: { Windows: 2, iOS: 1 },
    })
    const times = await db.selectFrom('clicks').select('created_at').where('item_type', '=', 'link').where('item_id', '=', links[0]!.id).orderBy('created_at').execute()
    expect(times.map((click) => click.created_at)).toEqual(['2023-01-01 10:00:00', '2023-01-01 11:00:00', '2023-01-02 12:00:00'])
    expect((await context.app.inject({ method: 'GET', url: `/${p}one` })).headers.location).toBe('https://example.com/one')
    expect((await context.app.inject({ method: 'GET', url: `/${p}two`, headers: { host } })).headers.location).toBe('https://example.com/two')
    const problems = await db.selectFrom('import_problems').select(['source_key', 'alias', 'reason']).where('job_id', '=', job.id).execute()
    expect(problems).toEqual([{ source_key: '3', alias: `${p}evil`, reason: expect.stringContaining('"url"') }])

    const again = await importOnce()
    expect(again).toMatchObject({ state: 'done', links_created: 0, links_existing: 2, clicks_imported: 0 })
    expect(await db.selectFrom('clicks').select('id').where('account_id', '=', account.id).execute()).toHaveLength(4)
    expect(fileHash()).toBe(before)
  })

  it('fails with one line on a missing table or an unreadable source', async () => {
    await expect(importOnce(source.url, 'nope_')).rejects.toThrow('The Shlink table "nope_short_urls" is not in the source database (check --prefix).')
    const wrong = kind === 'sqlite' ? 'sqlite:/nonexistent/dir/shlink.db' : source.url.replace(/\/\/[^@/]*@/, '//no_such_user_lw:wrong@')
    await expect(importOnce(wrong)).rejects.toThrow(/^The Shlink database cannot be read: [^\n]+$/)
  })
})
