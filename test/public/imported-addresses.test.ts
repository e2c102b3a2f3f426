// Issue 42, ADR 028: every address a source gave out answers at exactly its old path after an
// import, whatever length and characters the source allowed (YOURLS's `1`…`zz`, Kutt's one- and
// two-letter addresses and words such as `docs` or `u`, Shlink's `blog.post`, `docs/intro`, `a~b`,
// `50-off!`, `über`), on the main domain and on a branded domain, through both visitor paths (the
// router, and the front door's short path once the address is cached). Only the service's own
// paths (`api`, `app`, `metrics`, a path under `/qr/`) are renamed, and the report says so.
import lightMyRequest from 'light-my-request'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { useTestApp, type TestContext } from '../helpers/test-app.js'
import { createDomain } from '../helpers/factories.js'
import { commandLineActor } from '../../src/modules/changes/change-journal.js'
import { openMysqlSource } from '../../src/db/mysql-source.js'
import { checkYourlsTables, createYourlsReader } from '../../src/modules/imports/yourls-source.js'
import { kuttTables, shlinkTables } from '../modules/imports/source-schemas.js'
import { MYSQL_URL, openScratchSource, POSTGRES_URL, type ScratchKind, type ScratchSource } from '../modules/imports/source-databases.js'

/** An address of the source: its alias, whether it is on the branded domain, where it leads. */
interface Address {
  alias: string
  branded: boolean
  url: string
}

/** An alias as a browser sends it in a path: each segment percent-encoded. */
const aliasPath = (alias: string) => alias.split('/').map(encodeURIComponent).join('/')
const target = (name: string) => `https://example.com/${encodeURIComponent(name)}`
const main = (...aliases: string[]): Address[] => aliases.map((alias) => ({ alias, branded: false, url: target(`main-${alias}`) }))
const branded = (...aliases: string[]): Address[] => aliases.map((alias) => ({ alias, branded: true, url: target(`brand-${alias}`) }))
const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`

// YOURLS's first keywords (`1`…`zz` in its base 36) and its words that look like our paths.
const YOURLS = { served: main('1', '9', 'a', 'zz', 'r', 'u', 'qr'), reserved: main('api', 'app') }
// Kutt's 1-2 character addresses and its words; a branded domain's own.
const KUTT = { served: [...main('a', 'Zq', 'bio', 'docs', 'u', 'r', 'qr', 'users'), ...branded('x', 'docs')], reserved: main('app', 'metrics') }
// Shlink's custom slugs with dots, slashes, tildes, bangs and non-ASCII letters; the same on a branded domain.
const SHLINK = { served: [...main('blog.post', 'docs/intro', 'a~b', '50-off!', 'über'), ...branded('docs/intro', 'über', 'k')], reserved: main('qr/code') }

interface Source {
  name: 'yourls' | 'kutt' | 'shlink'
  kind: ScratchKind
  addresses: { served: Address[]; reserved: Address[] }
}

const SOURCES: Source[] = [
  ...(MYSQL_URL ? [{ name: 'yourls' as const, kind: 'mysql' as const, addresses: YOURLS }] : []),
  ...(['sqlite', ...(POSTGRES_URL ? ['postgres' as const] : [])] as ScratchKind[]).flatMap((kind) => [
    { name: 'kutt' as const, kind, addresses: KUTT },
    { name: 'shlink' as const, kind, addresses: SHLINK },
  ]),
]

/** Fills the source database with `addresses` as the source itself stores them. */
async function fill(source: ScratchSource, name: Source['name'], addresses: Address[], host: string): Promise<void> {
  const p = source.prefix
  if (name === 'yourls') {
    await source.exec(
      `CREATE TABLE \`${p}url\` (\`keyword\` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '', \`url\` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, ` +
      `\`title\` text COLLATE utf8mb4_unicode_ci DEFAULT NULL, \`timestamp\` timestamp NOT NULL DEFAULT current_timestamp(), \`ip\` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL, ` +
      `\`clicks\` int(10) unsigned NOT NULL, PRIMARY KEY (\`keyword\`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;` +
      `CREATE TABLE \`${p}log\` (\`click_id\` int(11) NOT NULL auto_increment, \`click_time\` datetime NOT NULL, \`shorturl\` varchar(100) BINARY NOT NULL, \`referrer\` varchar(200) NOT NULL, ` +
      `\`user_agent\` varchar(255) NOT NULL, \`ip_address\` varchar(41) NOT NULL, \`country_code\` char(2) NOT NULL, PRIMARY KEY (\`click_id\`)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;`,
    )
    await source.exec(`INSERT INTO \`${p}url\` VALUES ${addresses.map((address) => `(${sqlText(address.alias)}, ${sqlText(address.url)}, NULL, '2015-01-02 03:04:05', '1.2.3.4', 0)`).join(', ')}`)
    return
  }
  const domainOf = (address: Address) => (address.branded ? '1' : 'null')
  if (name === 'kutt') {
    await source.exec(kuttTables(source.kind))
    await source.exec(`insert into users (email) values ('k@example.com'); insert into domains (address, user_id) values (${sqlText(host)}, 1)`)
    await source.exec(`insert into links (address, domain_id, target, user_id) values ${addresses.map((address) => `(${sqlText(address.alias)}, ${domainOf(address)}, ${sqlText(address.url)}, 1)`).join(', ')}`)
    return
  }
  await source.exec(shlinkTables(source.kind, (table) => table))
  await source.exec(`insert into domains (authority) values (${sqlText(host)})`)
  await source.exec(`insert into short_urls (original_url, short_code, date_created, domain_id) values ${addresses.map((address) => `(${sqlText(address.url)}, ${sqlText(address.alias)}, '2020-01-02 03:04:05', ${domainOf(address)})`).join(', ')}`)
}

async function runImport(context: TestContext, source: Source, scratch: ScratchSource, accountId: number) {
  if (source.name !== 'yourls') return context.services.imports.importDatabase(commandLineActor(accountId), source.name, { url: scratch.url, onconflict: 'skip' })
  const database = await openMysqlSource(scratch.url)
  try {
    await checkYourlsTables(database, scratch.prefix)
    const id = await context.services.imports.startCommandLineImport(commandLineActor(accountId), 'yourls', `${scratch.url}#${scratch.prefix}`, { onconflict: 'skip', prefix: scratch.prefix })
    return await context.services.imports.runJob(id, { reader: createYourlsReader(database, scratch.prefix) })
  } finally {
    await database.close()
  }
}

describe.each(SOURCES.map((source) => [`${source.name} (${source.kind})`, source] as const))('imported addresses of %s', (_label, source) => {
  const { context, owner, api } = useTestApp({ env: { METRICS: 'on' } })
  let scratch: ScratchSource
  let host: string
  let jobId: number
  afterEach(() => vi.restoreAllMocks())

  beforeAll(async () => {
    host = (await createDomain(context, owner)).hostname
    scratch = await openScratchSource(source.kind)
    await fill(scratch, source.name, [...source.addresses.served, ...source.addresses.reserved], host)
    const job = await runImport(context, source, scratch, owner.id)
    expect(job).toMatchObject({ state: 'done', links_created: source.addresses.served.length + source.addresses.reserved.length, links_renamed: source.addresses.reserved.length, rows_skipped: 0 })
    jobId = job.id
  })
  afterAll(() => scratch?.drop())

  const visitorHeaders = (address: Address) => ({ host: address.branded ? host : 'lw.test', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' })

  /** The answer of the router alone, then of the front door (twice: the second from the short path), for `path`. */
  async function bothPaths(path: string, headers: Record<string, string>) {
    const router = await lightMyRequest((request, response) => context.app.routing(request, response), { method: 'GET', url: path, headers })
    await context.app.inject({ method: 'GET', url: path, headers })
    let routed = 0
    const routing = context.app.routing.bind(context.app)
    vi.spyOn(context.app, 'routing').mockImplementation((request, response) => {
      routed += 1
      routing(request, response)
    })
    const frontDoor = await context.app.inject({ method: 'GET', url: path, headers })
    vi.restoreAllMocks()
    return { router, frontDoor, routed }
  }

  it('answers every old address at its old path, on its domain, through the router and the short path', async () => {
    for (const address of source.addresses.served) {
      const { router, frontDoor, routed } = await bothPaths(`/${aliasPath(address.alias)}`, visitorHeaders(address))
      expect({ alias: address.alias, status: router.statusCode, location: router.headers.location }).toEqual({ alias: address.alias, status: 302, location: address.url })
      expect({ alias: address.alias, status: frontDoor.statusCode, location: frontDoor.headers.location, routed }).toEqual({ alias: address.alias, status: 302, location: address.url, routed: 0 })
    }
  })

  it('keeps the stored alias as the source gave it out, and answers no other domain with it', async () => {
    const rows = await context.database.db.selectFrom('links').select(['alias', 'host']).where('account_id', '=', owner.id).execute()
    for (const address of source.addresses.served) expect(rows).toContainEqual({ alias: address.alias, host: address.branded ? host : '' })
    // A main-domain address is not the branded domain's, nor a host nobody added.
    const onlyMain = source.addresses.served.find((address) => !address.branded && !source.addresses.served.some((other) => other.branded && other.alias === address.alias))!
    for (const other of [host, 'not-added.example']) {
      const { router, frontDoor } = await bothPaths(`/${aliasPath(onlyMain.alias)}`, { ...visitorHeaders(onlyMain), host: other })
      expect([router.statusCode, frontDoor.statusCode]).toEqual([404, 404])
    }
  })

  it('renames the addresses that are the service\'s own, reports old and new, and keeps serving its own pages there', async () => {
    const problems = await context.database.db.selectFrom('import_problems').select(['action', 'reason', 'alias']).where('job_id', '=', jobId).execute()
    expect(problems).toHaveLength(source.addresses.reserved.length)
    for (const address of source.addresses.reserved) {
      const problem = problems.find((row) => row.reason.includes(`"${address.alias}"`))!
      expect(problem).toMatchObject({ action: 'renamed', reason: expect.stringMatching(new RegExp(`^The alias "${address.alias}" is reserved here \\(a path Linkwell itself answers\\): imported as "${problem.alias}"\\.$`)) })
      const { router, frontDoor } = await bothPaths(`/${aliasPath(problem.alias!)}`, visitorHeaders(address))
      expect([router.headers.location, frontDoor.headers.location]).toEqual([address.url, address.url])
    }
    if (source.name !== 'shlink') {
      expect((await context.app.inject({ method: 'GET', url: '/api' })).json()).toMatchObject({ error: 1 })
      expect((await context.app.inject({ method: 'GET', url: '/app' })).headers.location).toBeUndefined()
    }
  })

  it('lists, reads, counts and exports an imported address through the API', async () => {
    const list = await api('GET', '/api/urls?limit=100')
    expect(list.statusCode).toBe(200)
    for (const address of source.addresses.served) {
      const entry = list.data.data.urls.find((url: { alias: string; domain: string | null }) => url.alias === address.alias && (url.domain !== null) === address.branded)
      expect(entry, address.alias).toBeDefined()
      const origin = address.branded ? `https://${host}` : 'https://lw.test'
      expect(entry.shorturl).toBe(`${origin}/${aliasPath(address.alias)}`)
      // The short URL the API gives is the address a visitor follows.
      expect((await context.app.inject({ method: 'GET', url: new URL(entry.shorturl).pathname, headers: visitorHeaders(address) })).headers.location).toBe(address.url)
      const single = await api('GET', `/api/url/${entry.id}`)
      expect(single.statusCode).toBe(200)
      const stats = await api('GET', `/api/stats?link=${entry.id}`)
      expect(stats.statusCode).toBe(200)
    }
    await context.clicks.flush()
    const counted = await api('GET', '/api/urls?limit=100')
    for (const entry of counted.data.data.urls) expect(entry.clicks, entry.alias).toBeGreaterThan(0)
    const exported = await api('GET', '/api/export/links?format=csv')
    expect(exported.statusCode).toBe(200)
    for (const address of source.addresses.served) expect(exported.body).toContain(aliasPath(address.alias))
  })

  it.runIf(source.name === 'shlink')('finds `über` in its composed and decomposed forms, and a path the router splits at `/`', async () => {
    const address = source.addresses.served.find((entry) => entry.alias === 'über' && !entry.branded)!
    for (const path of ['/%C3%BCber', '/u%CC%88ber', '/über']) {
      const { router, frontDoor } = await bothPaths(path, visitorHeaders(address))
      expect([path, router.headers.location, frontDoor.headers.location]).toEqual([path, address.url, address.url])
    }
    const intro = source.addresses.served.find((entry) => entry.alias === 'docs/intro' && !entry.branded)!
    for (const path of ['/docs/intro', '/docs%2Fintro', '/docs/intro/']) {
      expect([path, (await context.app.inject({ method: 'GET', url: path, headers: visitorHeaders(intro) })).headers.location]).toEqual([path, intro.url])
    }
    expect((await context.app.inject({ method: 'GET', url: '/docs/intro/more', headers: visitorHeaders(intro) })).statusCode).toBe(404)
    // Deeper paths under /api are still the API's: the envelope, not a visitor's page.
    const unknown = await api('GET', '/api/no/such/endpoint')
    expect([unknown.statusCode, unknown.data]).toEqual([404, expect.objectContaining({ error: 1, code: 'not_found' })])
  })
})

