// Factories for the public-side tests: rows written straight into the tables (the links and bio
// APIs are not needed to test what visitors see), and a visitor's request.
import type { InjectOptions } from 'fastify'
import type { Insertable } from 'kysely'
import type { App } from '../../src/http/app-instance.js'
import type { DB } from '../../src/db/database.js'
import type { LinksTable } from '../../src/db/schema.js'
import { nowTimestamp } from '../../src/core/time.js'

let aliasCounter = 0

/** A fresh alias, unique within the test process. */
export function nextAlias(prefix = 'lnk'): string {
  aliasCounter += 1
  return `${prefix}${process.pid}x${aliasCounter}`
}

export interface LinkFields {
  alias?: string
  host?: string
  url?: string
  title?: string | null
  description?: string | null
  passwordHash?: string | null
  expiresAt?: string | null
  type?: string
  splashId?: number | null
  overlayId?: number | null
  targeting?: Record<string, unknown>
  domainId?: number | null
}

export async function insertLink(db: DB, accountId: number, fields: LinkFields = {}): Promise<{ id: number; alias: string }> {
  const now = nowTimestamp()
  const alias = fields.alias ?? nextAlias()
  const values: Insertable<LinksTable> = {
    account_id: accountId,
    domain_id: fields.domainId ?? null,
    host: fields.host ?? '',
    alias,
    url: fields.url ?? 'https://example.com/landing',
    title: fields.title ?? null,
    description: fields.description ?? null,
    password_hash: fields.passwordHash ?? null,
    expires_at: fields.expiresAt ?? null,
    type: fields.type ?? 'direct',
    splash_id: fields.splashId ?? null,
    overlay_id: fields.overlayId ?? null,
    campaign_id: null,
    targeting: JSON.stringify(fields.targeting ?? {}),
    clicks: 0,
    unique_clicks: 0,
    created_at: now,
    updated_at: now,
  }
  const row = await db.insertInto('links').values(values).returning('id').executeTakeFirstOrThrow()
  return { id: row.id, alias }
}

export async function insertDomain(db: DB, accountId: number, hostname: string, redirects: { root?: string; notFound?: string } = {}): Promise<number> {
  const row = await db
    .insertInto('domains')
    .values({
      account_id: accountId,
      domain: `https://${hostname}`,
      hostname,
      redirect_root: redirects.root ?? null,
      redirect_404: redirects.notFound ?? null,
      created_at: nowTimestamp(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function insertPixel(db: DB, accountId: number, type: string, tag: string): Promise<number> {
  const row = await db
    .insertInto('pixels')
    .values({ account_id: accountId, type, name: `${type} pixel`, tag, created_at: nowTimestamp() })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function attachPixels(db: DB, linkId: number, pixelIds: number[]): Promise<void> {
  await db.insertInto('link_pixels').values(pixelIds.map((pixelId) => ({ link_id: linkId, pixel_id: pixelId }))).execute()
}

export async function insertSplash(db: DB, accountId: number, config: Record<string, unknown>): Promise<number> {
  const row = await db
    .insertInto('splash_pages')
    .values({ account_id: accountId, name: 'Splash', config: JSON.stringify(config), created_at: nowTimestamp() })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function insertOverlay(db: DB, accountId: number, type: string, config: Record<string, unknown>): Promise<number> {
  const row = await db
    .insertInto('overlays')
    .values({ account_id: accountId, type, name: 'Overlay', config: JSON.stringify(config), created_at: nowTimestamp() })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function insertBioPage(db: DB, accountId: number, fields: { alias?: string; name?: string; blocks?: { title: string; url: string }[] } = {}): Promise<{ id: number; alias: string }> {
  const now = nowTimestamp()
  const alias = fields.alias ?? nextAlias('bio')
  const row = await db
    .insertInto('bio_pages')
    .values({
      account_id: accountId,
      alias,
      name: fields.name ?? 'My links',
      description: 'About me',
      avatar: null,
      blocks: JSON.stringify(fields.blocks ?? [{ title: 'Blog', url: 'https://blog.example.com/' }]),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, alias }
}

export interface VisitOptions {
  method?: 'GET' | 'HEAD' | 'POST'
  headers?: Record<string, string>
  /** The socket address the request comes from (request.ip). */
  remoteAddress?: string
  /** A urlencoded form body (sets the content type). */
  form?: Record<string, string>
  payload?: string
}

/** A visitor's request: no API key, no JSON content type. */
export function visit(app: App, url: string, options: VisitOptions = {}) {
  const headers: Record<string, string> = { ...options.headers }
  let payload = options.payload
  if (options.form) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded'
    payload = new URLSearchParams(options.form).toString()
  }
  const request: InjectOptions = { method: options.method ?? (payload === undefined ? 'GET' : 'POST'), url, headers }
  if (payload !== undefined) request.payload = payload
  if (options.remoteAddress) request.remoteAddress = options.remoteAddress
  return app.inject(request)
}

/** Click rows of one item, oldest first. */
export async function clicksOf(db: DB, itemType: string, itemId: number) {
  return db.selectFrom('clicks').selectAll().where('item_type', '=', itemType).where('item_id', '=', itemId).orderBy('id').execute()
}

/** The `clicks` counter of a link. */
export async function linkClickCount(db: DB, linkId: number): Promise<number> {
  const row = await db.selectFrom('links').select('clicks').where('id', '=', linkId).executeTakeFirstOrThrow()
  return Number(row.clicks)
}
