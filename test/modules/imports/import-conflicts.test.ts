// What an import decides when an address is not simply free (issue 42, docs/adr/030-import-conflicts.md),
// against each source's own tables (source-schemas.ts): an address the workspace uses for another
// destination, or in another letter case, is a conflict handled by --on-conflict and reported with
// the old and new address, never merged as "existing"; the same address and destination is existing,
// its clicks imported once. Kutt's passwords (bcrypt) and expiry, Shlink's expiry, visit limit and
// long tags are carried. Kutt and Shlink on SQLite and PostgreSQL; YOURLS on MariaDB (TEST_MYSQL_URL).
import bcrypt from 'bcryptjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, useTestApp, type TestAccount } from '../../helpers/test-app.js'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { kuttTables, shlinkTables } from './source-schemas.js'
import { MYSQL_URL, openScratchSource, POSTGRES_URL, type ScratchKind, type ScratchSource } from './source-databases.js'

const KINDS: ScratchKind[] = POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite']

describe.each(KINDS)('import conflicts from %s', (kind) => {
  const { context } = useTestApp()
  let account: TestAccount
  let apiKey: string
  const sources: ScratchSource[] = []
  const p = `c${kind[0]}`
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    (await context.app.inject({ method, url, headers: { authorization: `Bearer ${apiKey}` }, ...(payload ? { payload } : {}) }))

  beforeAll(async () => {
    account = await createAccount(context)
    apiKey = account.apiKey
  })
  afterAll(async () => {
    for (const source of sources) await source.drop()
  })

  async function scratch(tables: string, rows: string): Promise<ScratchSource> {
    const source = await openScratchSource(kind)
    sources.push(source)
    await source.exec(tables)
    await source.exec(rows)
    return source
  }
  const problemsOf = async (jobId: number) => (await api('GET', `/api/import/${jobId}`)).json().import.problems as Array<Record<string, unknown>>
  const linkAt = (alias: string) => context.database.db.selectFrom('links').selectAll().where('account_id', '=', account.id).where('alias', '=', alias).executeTakeFirst()

  it('Kutt: another destination or letter case at a used address is a conflict, renamed and reported; the same link is existing, its clicks once; passwords and expiry carried', async () => {
    const pg = kind === 'postgres'
    const at = (iso: string) => (pg ? `'${iso}+00'` : String(Date.parse(`${iso.replace(' ', 'T')}Z`)))
    // Already in the workspace: one address with another destination, one with the same.
    expect((await api('POST', '/api/url/add', { url: 'https://example.com/other', custom: `${p}taken` })).statusCode).toBe(201)
    expect((await api('POST', '/api/url/add', { url: 'https://example.com/same', custom: `${p}same` })).statusCode).toBe(201)
    const hash = bcrypt.hashSync('open sesame', 4)
    const source = await scratch(kuttTables(kind), `insert into users (email) values ('k@example.com');
insert into links (address, target, user_id, password, expire_in, created_at) values
 ('${p}a1B', 'https://example.com/a', 1, '${hash}', ${at('2099-01-01 00:00:00')}, ${at('2022-01-01 00:00:00')}),
 ('${p.toUpperCase()}A1b', 'https://example.com/b', 1, null, null, ${at('2022-01-01 00:00:00')}),
 ('${p}taken', 'https://example.com/mine', 1, null, null, ${at('2022-01-01 00:00:00')}),
 ('${p}same', 'https://example.com/same', 1, null, null, ${at('2022-01-01 00:00:00')}),
 ('${p}gone', 'https://example.com/gone', 1, null, ${at('2020-01-01 00:00:00')}, ${at('2019-01-01 00:00:00')}),
 ('api', 'https://example.com/api', 1, null, null, ${at('2022-01-01 00:00:00')});
insert into visits (link_id, created_at, total, countries, referrers, br_chrome, os_windows) values (4, ${at('2023-01-01 10:00:00')}, 2, '{"us":2}', '{"direct":2}', 2, 2)`)
    const run = () => context.services.imports.importDatabase(commandLineActor(account.id), 'kutt', { url: source.url, onconflict: 'rename' })

    const job = await run()
    expect(job).toMatchObject({ state: 'done', links_created: 5, links_renamed: 3, links_existing: 1, clicks_imported: 2 })
    const problems = await problemsOf(job.id)
    const byOld = Object.fromEntries(problems.map((problem) => [problem.oldalias, problem]))
    expect(byOld[`${p.toUpperCase()}A1b`]).toMatchObject({ action: 'renamed', newalias: `${p.toUpperCase()}A1b-2`, reason: expect.stringMatching(new RegExp(`letter case from "${p}a1B"`)) })
    expect(byOld[`${p}taken`]).toMatchObject({ action: 'renamed', newalias: `${p}taken-2`, reason: expect.stringContaining('another destination (https://example.com/other)') })
    expect(byOld.api).toMatchObject({ action: 'renamed', reason: expect.stringContaining('is reserved here') })
    expect(byOld[`${p}same`]).toMatchObject({ action: 'existing', newalias: `${p}same` })
    expect(byOld[`${p}gone`]).toMatchObject({ action: 'changed', newalias: `${p}gone`, reason: expect.stringContaining('expired in Kutt on 2020-01-01 00:00:00') })
    // Nothing merged that differs: each address keeps its own destination.
    expect((await linkAt(`${p}taken`))!.url).toBe('https://example.com/other')
    expect((await linkAt(`${p}taken-2`))!.url).toBe('https://example.com/mine')
    expect((await linkAt(`${p.toUpperCase()}A1b-2`))!.url).toBe('https://example.com/b')
    expect((await linkAt(`${p}same`))!.clicks).toBe(2)
    expect((await linkAt(`${p}a1B`))!.expires_at).toBe('2099-01-01 00:00:00')
    expect((await context.app.inject({ method: 'GET', url: `/${p}gone` })).statusCode).toBe(410)

    // The protected link asks for its password; Kutt's password opens it, and is then hashed as Linkwell hashes.
    const page = await context.app.inject({ method: 'GET', url: `/${p}a1B` })
    expect(page.statusCode).toBe(200)
    expect(page.headers.location).toBeUndefined()
    expect(page.body).toContain('password')
    const post = (password: string) => context.app.inject({ method: 'POST', url: `/${p}a1B`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `password=${encodeURIComponent(password)}` })
    expect((await post('wrong')).statusCode).toBe(401)
    expect((await post('open sesame')).headers.location).toBe('https://example.com/a')
    expect((await linkAt(`${p}a1B`))!.password_hash).toMatch(/^scrypt\$/)
    expect((await post('open sesame')).headers.location).toBe('https://example.com/a')

    // Run again: nothing written, no click twice, the renamed ones found where they went.
    const again = await run()
    expect(again).toMatchObject({ state: 'done', links_created: 0, links_existing: 6, clicks_imported: 0 })
    expect((await linkAt(`${p}same`))!.clicks).toBe(2)
    expect((await problemsOf(again.id)).every((problem) => problem.action === 'existing')).toBe(true)

    // The whole report as CSV.
    const csv = await api('GET', `/api/import/${job.id}/report?format=csv`)
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-type']).toContain('text/csv')
    const lines = csv.body.trim().split('\r\n')
    expect(lines[0]).toBe('line,key,action,old_alias,new_alias,reason')
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^2,2,renamed,${p.toUpperCase()}A1b,${p.toUpperCase()}A1b-2,`)))
    expect(lines).toHaveLength(problems.length + 1)
  })

  it('Kutt: with --on-conflict skip the second of a case pair is not imported and says why; a re-run does not take it as existing', async () => {
    const other = await createAccount(context)
    const source = await scratch(kuttTables(kind), `insert into users (email) values ('k@example.com');
insert into links (address, target, user_id) values ('${p}qQ', 'https://example.com/q1', 1), ('${p}Qq', 'https://example.com/q2', 1)`)
    const run = () => context.services.imports.importDatabase(commandLineActor(other.id), 'kutt', { url: source.url, onconflict: 'skip' })
    for (const expected of [{ links_created: 1, rows_skipped: 1 }, { links_created: 0, links_existing: 1, rows_skipped: 1 }]) {
      const job = await run()
      expect(job).toMatchObject({ state: 'done', ...expected })
      const skipped = (await context.database.db.selectFrom('import_problems').selectAll().where('job_id', '=', job.id).where('action', '=', 'skipped').execute())
      expect(skipped).toMatchObject([{ old_alias: `${p}Qq`, reason: expect.stringContaining(`letter case from "${p}qQ"`) }])
    }
  })

  it('Shlink: expiry, visit limit carried; a tag over 50 characters shortened and reported, the link kept; a case pair a conflict', async () => {
    const t = (name: string) => name
    const long = 'x'.repeat(60)
    const source = await scratch(shlinkTables(kind, t), `insert into short_urls (original_url, short_code, date_created, valid_until, max_visits) values
 ('https://example.com/s1', '${p}sH', '2022-01-02 03:04:05', '2099-01-01 00:00:00', 5),
 ('https://example.com/s2', '${p}Sh', '2022-01-02 03:04:05', null, null);
insert into tags (name) values ('${long}'), ('fine');
insert into short_urls_in_tags (short_url_id, tag_id) values (1, 1), (1, 2)`)
    const job = await context.services.imports.importDatabase(commandLineActor(account.id), 'shlink', { url: source.url, onconflict: 'skip' })
    expect(job).toMatchObject({ state: 'done', links_created: 1, rows_skipped: 1 })
    const link = (await linkAt(`${p}sH`))!
    expect(link.expires_at).toBe('2099-01-01 00:00:00')
    const details = (await api('GET', `/api/url/${link.id}`)).json()
    expect(JSON.stringify(details)).toContain('"clicklimit":5')
    expect(await context.services.tags.namesOfOne('link', link.id)).toEqual(['fine', 'x'.repeat(50)].sort())
    const problems = await problemsOf(job.id)
    expect(problems).toEqual(expect.arrayContaining([
      expect.objectContaining({ action: 'changed', oldalias: `${p}sH`, newalias: `${p}sH`, reason: expect.stringContaining(`shortened to "${'x'.repeat(50)}"`) }),
      expect.objectContaining({ action: 'skipped', oldalias: `${p}Sh`, newalias: null, reason: expect.stringContaining(`letter case from "${p}sH"`) }),
    ]))
  })
})

describe.skipIf(!MYSQL_URL)('import conflicts from YOURLS (MariaDB)', () => {
  const { context } = useTestApp()
  let source: ScratchSource

  beforeAll(async () => {
    source = await openScratchSource('mysql')
    const t = `${source.prefix}url`
    // YOURLS' own definition (includes/functions-install.php): keyword varchar(100) utf8mb4_bin, so `aB…` and `Ab…` are two links there.
    await source.exec(`create table \`${t}\` (\`keyword\` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '', \`url\` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, ` +
      '`title` text COLLATE utf8mb4_unicode_ci DEFAULT NULL, `timestamp` timestamp NOT NULL DEFAULT current_timestamp(), `ip` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL, ' +
      '`clicks` int(10) unsigned NOT NULL, PRIMARY KEY (`keyword`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin; ' +
      `create table \`${source.prefix}log\` (\`click_id\` int(11) NOT NULL auto_increment, \`click_time\` datetime NOT NULL, \`shorturl\` varchar(100) BINARY NOT NULL, \`referrer\` varchar(200) NOT NULL, ` +
      '`user_agent` varchar(255) NOT NULL, `ip_address` varchar(41) NOT NULL, `country_code` char(2) NOT NULL, PRIMARY KEY (`click_id`), KEY `shorturl` (`shorturl`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci')
    const tail = 'k'.repeat(58)
    await source.exec(`insert into \`${t}\` values ('yaB${tail}', 'https://example.com/y1', null, '2022-01-02 03:04:05', '1.2.3.4', 0), ('yAb${tail}', 'https://example.com/y2', null, '2022-01-02 03:04:05', '1.2.3.4', 0)`)
  })
  afterAll(() => source?.drop())

  it('the second of a case pair of 61-character keywords is renamed, named old and new in the report', async () => {
    const account = await createAccount(context)
    const job = await context.services.imports.importDatabase(commandLineActor(account.id), 'yourls', { url: source.url, prefix: source.prefix, onconflict: 'rename' })
    expect(job).toMatchObject({ state: 'done', links_created: 2, links_renamed: 1 })
    const problems = await context.database.db.selectFrom('import_problems').selectAll().where('job_id', '=', job.id).execute()
    // Keyword order (binary): `yAb…` comes first and keeps its address.
    expect(problems).toMatchObject([{ action: 'renamed', old_alias: `yaB${'k'.repeat(58)}`, alias: expect.stringMatching(/-2$/), reason: expect.stringContaining(`letter case from "yAb${'k'.repeat(58)}"`) }])
    const links = await context.database.db.selectFrom('links').select(['alias', 'url']).where('account_id', '=', account.id).orderBy('url').execute()
    expect(links.map((link) => link.url)).toEqual(['https://example.com/y1', 'https://example.com/y2'])
  })
})
