// Kutt imported from its own database, a SQLite file and a PostgreSQL schema: the tables as Kutt
// creates them (thedevs-network/kutt server/models/{domain,link,visit}.model.js, with
// server/migrations/20250704163227_add_domain_name_to_links.js), filled as Kutt fills them
// (server/queries/visit.queries.js: an hourly row per link with its counters), imported and
// compared: links, redirects, and click totals per country, referrer, browser and OS.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, useTestApp, type TestAccount } from '../../helpers/test-app.js'
import { createDomain } from '../../helpers/factories.js'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { kuttTables, kuttRows } from './source-schemas.js'
import { openScratchSource, POSTGRES_URL, totalsOf, type ScratchKind, type ScratchSource } from './source-databases.js'



const KINDS: ScratchKind[] = POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite']

describe.each(KINDS)('Kutt import from %s', (kind) => {
  const { context } = useTestApp()
  let source: ScratchSource
  let account: TestAccount
  let host: string
  const p = `k${kind[0]}-`

  beforeAll(async () => {
    account = await createAccount(context)
    host = (await createDomain(context, account)).hostname
    source = await openScratchSource(kind)
    await source.exec(kuttTables(kind))
    await source.exec(kuttRows(kind, p, host))
  })
  afterAll(() => source?.drop())

  const importOnce = (url = source.url, onconflict: 'skip' | 'rename' | 'fail' = 'skip') =>
    context.services.imports.importDatabase(commandLineActor(account.id), 'kutt', { url, onconflict })
  const fileHash = () => (source.file ? createHash('sha256').update(readFileSync(source.file)).digest('hex') : '')

  it('imports links and hourly visits so that totals per dimension equal Kutt\'s, and nothing twice', async () => {
    const before = fileHash()
    const job = await importOnce()
    expect(job).toMatchObject({ state: 'done', links_created: 2, rows_skipped: 2, clicks_imported: 6 })
    expect(fileHash()).toBe(before)
    const db = context.database.db
    const links = await db.selectFrom('links').select(['id', 'alias', 'url', 'title', 'created_at', 'clicks', 'domain_id']).where('account_id', '=', account.id).orderBy('alias').execute()
    expect(links.map(({ id: _id, domain_id, ...link }) => ({ ...link, branded: domain_id !== null }))).toEqual([
      { alias: `${p}one`, url: 'https://example.com/one', title: 'One', created_at: '2022-01-02 03:04:05', clicks: 5, branded: false },
      { alias: `${p}two`, url: 'https://example.com/two', title: null, created_at: '2022-02-03 04:05:06', clicks: 1, branded: true },
    ])
    expect(await totalsOf(db, links[0]!.id)).toEqual({
      country: { US: 3, DE: 1, '': 1 },
      referrer: { 'google.com': 2, '': 1, 't.co': 2 },
      browser: { Chrome: 2, Safari: 1, Firefox: 2 },
      os: { Windows: 2, iOS: 1, Linux: 1, 'Mac OS': 1 },
    })
    expect(await totalsOf(db, links[1]!.id)).toEqual({ country: { FR: 1 }, referrer: { '': 1 }, browser: { Other: 1 }, os: { Other: 1 } })
    const hours = await db.selectFrom('clicks').select('created_at').where('item_type', '=', 'link').where('item_id', '=', links[0]!.id).orderBy('created_at').execute()
    expect(hours.map((click) => click.created_at)).toEqual(['2023-01-01 10:00:00', '2023-01-01 10:00:00', '2023-01-01 10:00:00', '2023-01-01 11:00:00', '2023-01-01 11:00:00'])

    // Both redirect: the main domain's and the branded domain's.
    expect((await context.app.inject({ method: 'GET', url: `/${p}one` })).headers.location).toBe('https://example.com/one')
    expect((await context.app.inject({ method: 'GET', url: `/${p}two`, headers: { host } })).headers.location).toBe('https://example.com/two')

    const problems = await db.selectFrom('import_problems').select(['source_key', 'alias', 'reason']).where('job_id', '=', job.id).orderBy('source_key').execute()
    expect(problems).toEqual([
      { source_key: '3', alias: `${p}evil`, reason: expect.stringContaining('"url"') },
      { source_key: '4', alias: null, reason: `The link "${p}banned" is banned in Kutt.` },
    ])

    const again = await importOnce()
    expect(again).toMatchObject({ state: 'done', links_created: 0, links_existing: 2, clicks_imported: 0 })
    expect(await db.selectFrom('clicks').select('id').where('account_id', '=', account.id).execute()).toHaveLength(6)
    expect(fileHash()).toBe(before)
  })

  it('takes an alias another account holds as --on-conflict says', async () => {
    const other = await createAccount(context)
    const renamed = await context.services.imports.importDatabase(commandLineActor(other.id), 'kutt', { url: source.url, onconflict: 'rename' })
    expect(renamed).toMatchObject({ state: 'done', links_created: 1, links_renamed: 1, rows_skipped: 3 })
    const third = await createAccount(context)
    const failed = await context.services.imports.importDatabase(commandLineActor(third.id), 'kutt', { url: source.url, onconflict: 'fail' })
    expect(failed.state).toBe('failed')
    expect(failed.error).toMatch(/^Line 1: .*on conflict: fail; nothing of this import was written/)
  })

  it('fails with one line when the source cannot be read, and refuses an address of the wrong kind', async () => {
    const wrong = kind === 'sqlite' ? 'sqlite:/nonexistent/dir/kutt.db' : source.url.replace('postgres@', 'no_such_user_lw:wrong@')
    await expect(importOnce(wrong)).rejects.toThrow(/^The Kutt database cannot be read: [^\n]+$/)
    const empty = await openScratchSource(kind)
    try {
      await empty.exec('create table links (id integer)')
      await expect(importOnce(empty.url)).rejects.toThrow('The Kutt table "visits" is not in the source database.')
    } finally {
      await empty.drop()
    }
    await expect(importOnce('mysql://root@127.0.0.1:3306/test')).rejects.toThrow(/"database" must be a sqlite:\/path or postgres:\/\/ address for kutt/)
    const failed = await context.database.db.selectFrom('import_jobs').select(['state', 'error']).where('account_id', '=', account.id).where('state', '=', 'failed').execute()
    expect(failed.length).toBeGreaterThanOrEqual(2)
  })
})
