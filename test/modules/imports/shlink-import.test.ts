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
import { MYSQL_URL, openScratchSource, POSTGRES_URL, totalsOf, type ScratchKind, type ScratchSource } from './source-databases.js'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

function shlinkTables(kind: ScratchKind, t: (name: string) => string): string {
  const id = { postgres: 'id bigserial primary key', mysql: 'id bigint unsigned auto_increment primary key', sqlite: 'id integer primary key autoincrement' }[kind]
  const ref = kind === 'mysql' ? 'bigint unsigned' : kind === 'postgres' ? 'bigint' : 'integer'
  const time = kind === 'postgres' ? 'timestamp(0) without time zone' : 'datetime'
  const bool = kind === 'sqlite' ? 'boolean' : 'boolean'
  const real = kind === 'postgres' ? 'double precision' : 'double'
  const date = kind === 'mysql' ? '`date`' : 'date'
  return `create table ${t('domains')} (${id}, authority varchar(512) not null unique, base_url_redirect varchar(2048), regular_not_found_redirect varchar(2048), invalid_short_url_redirect varchar(2048));
create table ${t('short_urls')} (${id}, original_url varchar(2048) not null, short_code varchar(255) not null, date_created ${time} not null, valid_since ${time}, valid_until ${time}, max_visits integer, import_source varchar(255), import_original_short_code varchar(255), domain_id ${ref} references ${t('domains')}(id), author_api_key_id ${ref}, title varchar(512), title_was_auto_resolved ${bool} not null default false, crawlable ${bool} not null default false, forward_query ${bool} not null default true, unique (short_code, domain_id));
create table ${t('tags')} (${id}, name varchar(255) not null unique);
create table ${t('short_urls_in_tags')} (short_url_id ${ref} not null references ${t('short_urls')}(id) on delete cascade, tag_id ${ref} not null references ${t('tags')}(id) on delete cascade, primary key (short_url_id, tag_id));
create table ${t('visit_locations')} (${id}, country_code varchar(255), country_name varchar(255), region_name varchar(255), city_name varchar(255), timezone varchar(255), lat ${real} not null, lon ${real} not null, is_empty ${bool} not null default false);
create table ${t('visits')} (${id}, referer varchar(1024), ${date} ${time} not null, remote_addr varchar(256), user_agent varchar(512), short_url_id ${ref} references ${t('short_urls')}(id) on delete cascade, visit_location_id ${ref} references ${t('visit_locations')}(id) on delete set null, visited_url varchar(2048), type varchar(255) not null, potential_bot ${bool} not null default false, redirect_url varchar(2048))`
}

function shlinkRows(kind: ScratchKind, t: (name: string) => string, p: string, host: string): string {
  const date = kind === 'mysql' ? '`date`' : 'date'
  const visit = (shortUrl: number | null, referer: string | null, at: string, agent: string, location: number | null, type = 'valid_short_url') =>
    `(${shortUrl ?? 'null'}, ${referer === null ? 'null' : `'${referer}'`}, '${at}', '${agent}', ${location ?? 'null'}, '${type}')`
  return `insert into ${t('domains')} (authority) values ('${host}');
insert into ${t('short_urls')} (original_url, short_code, date_created, domain_id, title) values
 ('https://example.com/one', '${p}one', '2022-01-02 03:04:05', null, 'One'),
 ('https://example.com/two', '${p}two', '2022-02-03 04:05:06', 1, null),
 ('javascript:alert(1)', '${p}evil', '2022-02-03 04:05:06', null, 'Evil');
insert into ${t('tags')} (name) values ('spring'), ('print');
insert into ${t('short_urls_in_tags')} (short_url_id, tag_id) values (1, 1), (1, 2), (2, 1);
insert into ${t('visit_locations')} (country_code, country_name, lat, lon) values ('US', 'United States', 0, 0), ('DE', 'Germany', 0, 0);
insert into ${t('visits')} (short_url_id, referer, ${date}, user_agent, visit_location_id, type) values
 ${visit(1, 'https://www.google.com/search?q=x', '2023-01-01 10:00:00', CHROME, 1)},
 ${visit(1, null, '2023-01-01 11:00:00', IPHONE, 2)},
 ${visit(1, 'https://t.co/abc', '2023-01-02 12:00:00', CHROME, null)},
 ${visit(2, '', '2023-01-03 09:00:00', IPHONE, 1)},
 ${visit(null, null, '2023-01-03 09:00:00', CHROME, 1, 'base_url')},
 ${visit(3, null, '2023-01-04 09:00:00', CHROME, 1)}`
}

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
