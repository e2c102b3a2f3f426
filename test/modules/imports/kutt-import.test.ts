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
import { openScratchSource, POSTGRES_URL, totalsOf, type ScratchKind, type ScratchSource } from './source-databases.js'

function kuttTables(kind: ScratchKind): string {
  const pg = kind === 'postgres'
  const id = pg ? 'id serial primary key' : 'id integer primary key autoincrement'
  const time = pg ? 'timestamptz' : 'datetime'
  const json = pg ? 'jsonb' : 'json'
  const counters = ['br_chrome', 'br_edge', 'br_firefox', 'br_ie', 'br_opera', 'br_other', 'br_safari', 'os_android', 'os_ios', 'os_linux', 'os_macos', 'os_other', 'os_windows']
    .map((column) => `${column} integer not null default 0`).join(', ')
  return `create table users (${id}, email varchar(255) not null);
create table domains (${id}, banned boolean not null default false, banned_by_id integer references users(id), address varchar(255) not null unique, homepage varchar(255), user_id integer references users(id) on delete set null, uuid varchar(36), created_at ${time} not null default CURRENT_TIMESTAMP, updated_at ${time} not null default CURRENT_TIMESTAMP);
create table links (${id}, address varchar(255) not null, description varchar(255), banned boolean not null default false, banned_by_id integer references users(id), domain_id integer references domains(id), password varchar(255), expire_in ${time}, target varchar(2097152) not null, user_id integer references users(id) on delete cascade, visit_count integer not null default 0, uuid varchar(36), created_at ${time} not null default CURRENT_TIMESTAMP, updated_at ${time} not null default CURRENT_TIMESTAMP, domain_name varchar(255));
create table visits (${id}, countries ${json} default '{}', created_at ${time} not null default CURRENT_TIMESTAMP, updated_at ${time} default CURRENT_TIMESTAMP, link_id integer references links(id) on delete cascade, referrers ${json} default '{}', total integer not null default 0, ${counters}, user_id integer)`
}

function kuttRows(kind: ScratchKind, p: string, host: string): string {
  const pg = kind === 'postgres'
  const yes = pg ? 'true' : '1'
  const no = pg ? 'false' : '0'
  // Kutt on SQLite (knex over better-sqlite3) writes dates as epoch milliseconds; on PostgreSQL as timestamptz.
  const at = (iso: string) => (pg ? `'${iso}+00'` : String(Date.parse(`${iso.replace(' ', 'T')}Z`)))
  return `insert into users (email) values ('k@example.com');
insert into domains (address, user_id) values ('${host}', 1);
insert into links (address, description, banned, domain_id, target, user_id, visit_count, created_at) values
 ('${p}one', 'One', ${no}, null, 'https://example.com/one', 1, 5, ${at('2022-01-02 03:04:05')}),
 ('${p}two', null, ${no}, 1, 'https://example.com/two', 1, 1, ${at('2022-02-03 04:05:06')}),
 ('${p}evil', 'Evil', ${no}, null, 'javascript:alert(1)', 1, 4, ${at('2022-02-03 04:05:06')}),
 ('${p}banned', null, ${yes}, null, 'https://example.com/banned', 1, 0, ${at('2022-02-03 04:05:06')});
insert into visits (link_id, created_at, total, countries, referrers, br_chrome, br_safari, br_firefox, br_other, os_windows, os_ios, os_linux, os_macos, os_other) values
 (1, ${at('2023-01-01 10:00:00')}, 3, '{"us":2,"de":1}', '{"google[dot]com":2,"direct":1}', 2, 1, 0, 0, 2, 1, 0, 0, 0),
 (1, ${at('2023-01-01 11:00:00')}, 2, '{"us":1,"unknown":1}', '{"t[dot]co":2}', 0, 0, 2, 0, 0, 0, 1, 1, 0),
 (2, ${at('2023-01-02 09:00:00')}, 1, '{"fr":1}', '{"direct":1}', 0, 0, 0, 1, 0, 0, 0, 0, 1),
 (3, ${at('2023-01-02 09:00:00')}, 4, '{"us":4}', '{"direct":4}', 4, 0, 0, 0, 4, 0, 0, 0, 0)`
}

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
