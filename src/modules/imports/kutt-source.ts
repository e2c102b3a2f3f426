// Kutt as an import's source (issue 21): its database, SQLite or PostgreSQL, with the tables as
// Kutt itself creates them (thedevs-network/kutt):
//   `links` (server/models/link.model.js: id, address — the alias —, description, banned,
//   domain_id → domains.id, password, expire_in, target, user_id, visit_count, uuid, created_at,
//   updated_at; server/migrations/20250704163227_add_domain_name_to_links.js adds domain_name),
//   `domains` (server/models/domain.model.js: id, address — the host —, homepage, user_id, …) and
//   `visits` (server/models/visit.model.js: id, link_id, created_at, countries jsonb, referrers
//   jsonb, total, br_chrome, br_edge, br_firefox, br_ie, br_opera, br_other, br_safari,
//   os_android, os_ios, os_linux, os_macos, os_other, os_windows).
// Kutt keeps one visits row per link and hour (server/queries/visit.queries.js `add`), counting
// each visit into `total`, one browser and one OS column, `countries` under the lower-case
// country code (or "unknown") and `referrers` under the referring host with its dots written
// "[dot]" (or "direct"; server/queues/visit.js). Each row is turned into `total` clicks at its
// hour whose counts per country, referrer, browser and OS equal the row's (Kutt does not keep
// which country went with which browser, so they are paired in order). A link's `password` is
// Kutt's bcrypt hash (server/handlers/links.handler.js: bcrypt.hash(password, 12)): stored as it
// is, verified with bcrypt and re-hashed with Linkwell's scrypt at the first right password
// (modules/visits/link-password.ts); `expire_in` is its expiry, kept even when passed (the link
// stays expired, as in Kutt). Read only.
import type { SqlSource } from '../../db/sql-source.js'
import { sourceJson, sourceTimestamp } from '../../db/sql-source.js'
import { ValidationError } from '../../core/errors.js'
import { domainOrigin } from './file-sources.js'
import { countryCodeOf, type DatabaseRow, type SourceClick, type SourceReader } from './source-reader.js'
import { isBcryptHash } from '../visits/link-password.js'
import { nowTimestamp } from '../../core/time.js'

// Kutt's browser and OS columns, named as Linkwell's statistics name them (ua-parser-js's names).
const BROWSERS = { chrome: 'Chrome', edge: 'Edge', firefox: 'Firefox', ie: 'IE', opera: 'Opera', safari: 'Safari', other: 'Other' } as const
const SYSTEMS = { android: 'Android', ios: 'iOS', linux: 'Linux', macos: 'Mac OS', windows: 'Windows', other: 'Other' } as const

interface KuttLink {
  id: number
  address: string
  target: string
  description: string | null
  banned: unknown
  created_at: unknown
  domain: string | null
  password: string | null
  expire_in: unknown
}

type KuttVisit = { id: number; link_id: number | null; created_at: unknown; countries: unknown; referrers: unknown; total: number } & Record<string, unknown>

/** Checks that Kutt's tables are there; throws a one-line reason. */
export async function checkKuttTables(source: SqlSource): Promise<void> {
  for (const table of ['links', 'visits', 'domains']) {
    if (!(await source.hasTable(table))) throw new ValidationError(`The Kutt table "${table}" is not in the source database.`)
  }
}

/** `count` values of `counts` ({value: n}) in order, as many as `total` (the rest null). */
function spread(counts: Record<string, number>, total: number, name: (key: string) => string | null): (string | null)[] {
  const values: (string | null)[] = []
  for (const [key, count] of Object.entries(counts)) {
    for (let index = 0; index < Number(count) && values.length < total; index += 1) values.push(name(key))
  }
  while (values.length < total) values.push(null)
  return values
}

function countsOf(value: unknown): Record<string, number> {
  const parsed = sourceJson(value)
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, number>) : {}
}

export function createKuttReader(source: SqlSource): SourceReader {
  const counterColumns = [...Object.keys(BROWSERS).map((key) => `br_${key}`), ...Object.keys(SYSTEMS).map((key) => `os_${key}`)]
  return {
    async links(offset, limit): Promise<DatabaseRow[]> {
      const rows = await source.rows<KuttLink>(
        'select l.id, l.address, l.target, l.description, l.banned, l.created_at, l.password, l.expire_in, d.address as domain from links l left join domains d on d.id = l.domain_id order by l.id limit ? offset ?',
        [limit, offset],
      )
      return rows.map((row, index): DatabaseRow => {
        const line = offset + index + 1
        const key = String(row.id)
        if (row.banned === true || row.banned === 1 || row.banned === '1') return { line, key, problem: `The link "${row.address}" is banned in Kutt.` }
        const notes: string[] = []
        const stored: NonNullable<DatabaseRow['stored']> = {}
        if (row.password) {
          stored.passwordHash = row.password
          if (!isBcryptHash(row.password)) notes.push('Its password hash in Kutt is not bcrypt: no password opens it until one is set here.')
        }
        const expiresAt = row.expire_in === null || row.expire_in === undefined ? undefined : sourceTimestamp(row.expire_in)
        if (expiresAt) {
          stored.expiresAt = expiresAt
          if (expiresAt <= nowTimestamp()) notes.push(`It expired in Kutt on ${expiresAt} (UTC): imported expired.`)
        }
        return {
          ...(Object.keys(stored).length > 0 ? { stored } : {}),
          ...(notes.length > 0 ? { notes } : {}),
          line,
          key,
          input: {
            url: row.target,
            custom: row.address,
            ...(row.description ? { metatitle: row.description.slice(0, 200) } : {}),
            ...(row.domain ? { domain: domainOrigin(row.domain) } : {}),
          },
          createdAt: sourceTimestamp(row.created_at),
        }
      })
    },

    async clicks(cursor, limit) {
      // Rows of visits, each many clicks: fewer rows a page.
      const rows = await source.rows<KuttVisit>(
        `select id, link_id, created_at, countries, referrers, total, ${counterColumns.join(', ')} from visits where id > ? order by id limit ?`,
        [Number(cursor), Math.max(1, Math.floor(limit / 20))],
      )
      if (rows.length === 0) return undefined
      const clicks: SourceClick[] = []
      for (const row of rows) {
        const total = Number(row.total)
        const createdAt = sourceTimestamp(row.created_at)
        if (row.link_id === null || !createdAt || !(total > 0)) continue
        const countries = spread(countsOf(row.countries), total, countryCodeOf)
        const referrers = spread(countsOf(row.referrers), total, (key) => (key.toLowerCase() === 'direct' ? null : key.replace(/\[dot\]/g, '.').toLowerCase().replace(/^www\./, '').slice(0, 255)))
        const browsers = spread(Object.fromEntries(Object.entries(BROWSERS).map(([key, name]) => [name, Number(row[`br_${key}`] ?? 0)])), total, (name) => name)
        const systems = spread(Object.fromEntries(Object.entries(SYSTEMS).map(([key, name]) => [name, Number(row[`os_${key}`] ?? 0)])), total, (name) => name)
        for (let index = 0; index < total; index += 1) {
          clicks.push({
            linkKey: String(row.link_id),
            createdAt,
            referrerHost: referrers[index]!,
            country: countries[index]!,
            agent: { browser: browsers[index] ?? '', os: systems[index] ?? '', device: '' },
          })
        }
      }
      return { last: String(rows[rows.length - 1]!.id), clicks }
    },
  }
}
