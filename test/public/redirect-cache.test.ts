// The redirect path's cache, through the real app: every database query is counted (a Kysely
// plugin on the services' connection), and the test announces changes on the app's own bus the
// way other modules do. Rows are written directly (helpers/factories `insert…Row`) so that no
// change is announced until the test announces it.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createClickRecorder } from '../../src/analytics/click-recorder.js'
import { buildApp } from '../../src/app.js'
import type { App } from '../../src/http/app-instance.js'
import { createLogger } from '../../src/logger.js'
import { createServices } from '../../src/services.js'
import { loadConfig } from '../../src/config.js'
import { aliasKey } from '../../src/modules/aliases/alias-namespace.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'
import { attachPixelRows, createAccount, createDomain, insertLinkRow, insertOverlayRow, insertPixelRow, insertSplashPageRow, uniqueAlias } from '../helpers/factories.js'
import { visit } from './redirect-test-support.js'
import { ALIAS_TOPIC, DOMAIN_TOPIC, OVERLAY_TOPIC, PIXEL_TOPIC, SPLASH_TOPIC, type InvalidationBus } from '../../src/core/invalidation.js'

// Tables the visit path never reads but background work of the app may at any moment (the outbox
// looks up webhook subscribers for an earlier test's click batch): a CI run counted one during a visit.
const BACKGROUND_TABLES = new Set(['webhooks', 'webhook_deliveries', 'outbox_events'])

/** Records the table every executed query reads or writes first (background work's tables left out). */
function createQueryLog(): KyselyPlugin & { tables: string[] } {
  const tables: string[] = []
  return {
    tables,
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const node = args.node as { from?: { froms?: { table?: { identifier?: { name?: string } } }[] }; into?: { table?: { identifier?: { name?: string } } } }
      const table = node.from?.froms?.[0]?.table?.identifier?.name ?? node.into?.table?.identifier?.name ?? args.node.kind
      if (!BACKGROUND_TABLES.has(table)) tables.push(table)
      return args.node
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return args.result
    },
  }
}

describe('redirect cache', () => {
  let database: TestDatabase
  let app: App
  let invalidation: InvalidationBus
  let queries: ReturnType<typeof createQueryLog>
  let accountId: number
  const BRANDED = 'go.cache.test'

  beforeAll(async () => {
    database = await createTestDatabase()
    queries = createQueryLog()
    const config = loadConfig({ PUBLIC_URL: 'https://lw.test', LOG_LEVEL: 'silent' })
    // Every query of the app counted; clicks written on their own connection, so they never are.
    const services = createServices({
      config,
      database: { ...database, db: database.db.withPlugin(queries) },
      log: createLogger({ logLevel: 'silent' }),
      clickRecorder: createClickRecorder({ db: database.db }),
    })
    invalidation = services.invalidation
    const owner = await createAccount({ services })
    accountId = owner.id
    app = await buildApp({ services })
    await app.ready()
    await createDomain({ services }, owner, { domain: `https://${BRANDED}`, redirectroot: 'https://brand.test/old-root', redirect404: 'https://brand.test/missing' })
  })
  afterAll(async () => {
    await app.close()
    await database.destroy()
  })
  beforeEach(() => {
    queries.tables.length = 0
  })

  /** Visits `path` and returns the Location (or the status) and the tables queried meanwhile. */
  async function visitCounting(path: string, host = 'lw.test'): Promise<{ answer: string | number; tables: string[] }> {
    queries.tables.length = 0
    const response = await visit(app, path, { headers: { host } })
    return { answer: (response.headers.location as string | undefined) ?? response.statusCode, tables: [...queries.tables] }
  }

  it('reads a link once and serves the next visits without touching the database', async () => {
    const link = await insertLinkRow(database.db, accountId, { url: 'https://example.com/first' })
    expect(await visitCounting(`/${link.alias}`)).toEqual({ answer: 'https://example.com/first', tables: ['links'] })
    expect(await visitCounting(`/${link.alias}`)).toEqual({ answer: 'https://example.com/first', tables: [] })
    expect(await visitCounting(`/${link.alias}`)).toEqual({ answer: 'https://example.com/first', tables: [] })
  })

  it('reads a link with its splash page, overlay and pixels in one query', async () => {
    const splashId = await insertSplashPageRow(database.db, accountId, { title: 'Wait', counter: 2 })
    const overlayId = await insertOverlayRow(database.db, accountId, 'message', { message: 'Hi' })
    const withSplash = await insertLinkRow(database.db, accountId, { type: 'splash', splash_id: splashId })
    const withOverlay = await insertLinkRow(database.db, accountId, { type: 'overlay', overlay_id: overlayId })
    await attachPixelRows(database.db, withOverlay.id, [await insertPixelRow(database.db, accountId, 'fbpixel', '123456789012345'), await insertPixelRow(database.db, accountId, 'bing', '12345678')])
    expect((await visitCounting(`/${withSplash.alias}`)).tables).toEqual(['links'])
    expect((await visitCounting(`/${withOverlay.alias}`)).tables).toEqual(['links'])
    const again = await visit(app, `/${withOverlay.alias}`)
    expect(again.body).toContain('https://bat.bing.com')
    expect(again.body).toContain('<p>Hi</p>')
  })

  it('caches unknown aliases: a link read and a bio read once, then nothing', async () => {
    const alias = uniqueAlias('missing')
    expect(await visitCounting(`/${alias}`)).toEqual({ answer: 404, tables: ['links', 'bio_pages'] })
    expect(await visitCounting(`/${alias}`)).toEqual({ answer: 404, tables: [] })
  })

  it('shares one read among concurrent first visits', async () => {
    const link = await insertLinkRow(database.db, accountId)
    queries.tables.length = 0
    const responses = await Promise.all(Array.from({ length: 5 }, () => visit(app, `/${link.alias}`)))
    expect(responses.map((response) => response.statusCode)).toEqual([302, 302, 302, 302, 302])
    expect(queries.tables).toEqual(['links'])
  })

  it('serves the new destination once the change is announced, and not before', async () => {
    const link = await insertLinkRow(database.db, accountId, { url: 'https://example.com/before' })
    await visitCounting(`/${link.alias}`)
    await database.db.updateTable('links').set({ url: 'https://example.com/after' }).where('id', '=', link.id).execute()
    expect((await visitCounting(`/${link.alias}`)).answer).toBe('https://example.com/before')
    invalidation.publish(ALIAS_TOPIC, aliasKey('', link.alias))
    expect(await visitCounting(`/${link.alias}`)).toEqual({ answer: 'https://example.com/after', tables: ['links'] })
  })

  it('drops a cached "not found" when a link is created at the alias', async () => {
    const alias = `Created${process.pid}`
    expect((await visitCounting(`/${alias}`)).answer).toBe(404)
    await insertLinkRow(database.db, accountId, { alias: alias, url: 'https://example.com/new' })
    expect((await visitCounting(`/${alias}`)).answer).toBe(404)
    // Announced in any letter case: the key is lower-cased.
    invalidation.publish(ALIAS_TOPIC, aliasKey('', alias.toUpperCase()))
    expect((await visitCounting(`/${alias}`)).answer).toBe('https://example.com/new')
  })

  it('ignores announcements for other hosts and topics', async () => {
    const link = await insertLinkRow(database.db, accountId, { url: 'https://example.com/kept' })
    await visitCounting(`/${link.alias}`)
    invalidation.publish(ALIAS_TOPIC, aliasKey(BRANDED, link.alias))
    invalidation.publish('campaign', '1')
    expect((await visitCounting(`/${link.alias}`)).tables).toEqual([])
  })

  it('forgets every cached link when a splash page, overlay or pixel changes', async () => {
    const link = await insertLinkRow(database.db, accountId)
    for (const topic of [SPLASH_TOPIC, OVERLAY_TOPIC, PIXEL_TOPIC] as const) {
      await visitCounting(`/${link.alias}`)
      expect((await visitCounting(`/${link.alias}`)).tables).toEqual([])
      invalidation.publish(topic, '1')
      expect((await visitCounting(`/${link.alias}`)).tables).toEqual(['links'])
    }
  })

  it('caches branded domains, found or not, and drops them on the domain topic', async () => {
    const alias = uniqueAlias('brand')
    await insertLinkRow(database.db, accountId, { host: BRANDED, alias: alias, url: 'https://example.com/branded' })
    expect(await visitCounting(`/${alias}`, BRANDED)).toEqual({ answer: 'https://example.com/branded', tables: ['domains', 'links'] })
    expect(await visitCounting(`/${alias}`, BRANDED)).toEqual({ answer: 'https://example.com/branded', tables: [] })
    expect(await visitCounting('/', BRANDED)).toEqual({ answer: 'https://brand.test/old-root', tables: [] })

    expect((await visitCounting('/', 'nobody.cache.test')).tables).toEqual(['domains'])
    expect((await visitCounting('/', 'nobody.cache.test')).tables).toEqual([])

    await database.db.updateTable('domains').set({ redirect_root: 'https://brand.test/new-root' }).where('hostname', '=', BRANDED).execute()
    expect((await visitCounting('/', BRANDED)).answer).toBe('https://brand.test/old-root')
    invalidation.publish(DOMAIN_TOPIC, BRANDED)
    expect(await visitCounting('/', BRANDED)).toEqual({ answer: 'https://brand.test/new-root', tables: ['domains'] })
  })

  it('needs no read at all for the main host root or an alias that cannot exist', async () => {
    expect(await visitCounting('/')).toEqual({ answer: '/app/', tables: [] })
    // Imported aliases may be of any length and form (ADR 028): what cannot be stored is longer than
    // a source's column, holds a control character, or is one of the service's own paths.
    expect(await visitCounting(`/${'a'.repeat(256)}`)).toEqual({ answer: 404, tables: [] })
    expect(await visitCounting('/x%7Fy')).toEqual({ answer: 404, tables: [] })
    expect(await visitCounting('/qr/x/y/z')).toEqual({ answer: 404, tables: [] })
  })
})
