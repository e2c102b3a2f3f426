// What the public-side tests do as a visitor: a request without an API key, and what it left
// behind (click rows, a link's counter). Test data comes from helpers/factories.
import type { InjectOptions } from 'fastify'
import type { App } from '../../src/http/app-instance.js'
import type { DB } from '../../src/db/database.js'

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
