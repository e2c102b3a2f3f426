// Shlink as an import's source (issue 21): its database, PostgreSQL, MySQL/MariaDB or SQLite, with
// the tables as Shlink's Doctrine mappings define them (shlinkio/shlink,
// module/Core/config/entities-mappings/):
//   `short_urls` (Shlinkio.Shlink.Core.ShortUrl.Entity.ShortUrl.php: id, original_url, short_code,
//   date_created, valid_since, valid_until, max_visits, domain_id → domains.id, title, …; unique
//   short_code + domain_id), `domains` (…Domain.Entity.Domain.php: id, authority),
//   `tags` (…Tag.Entity.Tag.php: id, name) and `short_urls_in_tags` (short_url_id, tag_id),
//   `visits` (…Visit.Entity.Visit.php: id, referer, `date`, remote_addr, user_agent,
//   short_url_id — null for orphan visits —, visit_location_id, visited_url, type, potential_bot)
//   and `visit_locations` (…Visit.Entity.VisitLocation.php: id, country_code, country_name, …).
// Shlink may put a prefix before its table names (`determineTableName`): `--prefix` names it.
// Dates are stored in UTC. A short URL's `valid_until` is its expiry (kept even when passed: the link
// stays expired, as in Shlink), `max_visits` its click limit (`clicklimit`); `valid_since` has no
// counterpart here (the link answers from the import on: reported). A tag longer than Linkwell's 50
// characters is shortened and reported, the link kept. Read in pages (id order), never written.
import type { SqlSource } from '../../db/sql-source.js'
import { sourceTimestamp } from '../../db/sql-source.js'
import { ValidationError } from '../../core/errors.js'
import { referrerHostOf, describeUserAgent, type AgentDescription } from '../../analytics/visitor-reading.js'
import { memoize } from '../../core/memoize.js'
import { domainOrigin } from './file-sources.js'
import { countryCodeOf, fittedTags, type DatabaseRow, type SourceReader } from './source-reader.js'
import { MAX_CLICK_LIMIT } from '../../core/link-limits.js'
import { nowTimestamp } from '../../core/time.js'

export const SHLINK_TABLES = ['short_urls', 'domains', 'tags', 'short_urls_in_tags', 'visits', 'visit_locations'] as const

interface ShlinkUrl {
  id: number | string
  short_code: string
  original_url: string
  title: string | null
  date_created: unknown
  domain: string | null
  valid_since: unknown
  valid_until: unknown
  max_visits: number | string | null
}

interface ShlinkVisit {
  id: number | string
  short_url_id: number | string
  date: unknown
  referer: string | null
  user_agent: string | null
  country_code: string | null
}

/** Checks the prefix and that Shlink's tables are there; throws a one-line reason. */
export async function checkShlinkTables(source: SqlSource, prefix: string): Promise<void> {
  if (!/^[A-Za-z0-9_]{0,40}$/.test(prefix)) throw ValidationError.field('prefix', 'must be letters, digits and underscores')
  for (const table of SHLINK_TABLES) {
    if (!(await source.hasTable(`${prefix}${table}`))) throw new ValidationError(`The Shlink table "${prefix}${table}" is not in the source database${prefix ? ' (check --prefix)' : ''}.`)
  }
}

export function createShlinkReader(source: SqlSource, prefix: string): SourceReader {
  const t = (table: (typeof SHLINK_TABLES)[number]) => `${prefix}${table}`
  const describe = memoize<AgentDescription>(describeUserAgent, 2_000)
  return {
    async links(offset, limit): Promise<DatabaseRow[]> {
      const rows = await source.rows<ShlinkUrl>(
        `select s.id, s.short_code, s.original_url, s.title, s.date_created, s.valid_since, s.valid_until, s.max_visits, d.authority as domain from ${t('short_urls')} s left join ${t('domains')} d on d.id = s.domain_id order by s.id limit ? offset ?`,
        [limit, offset],
      )
      const tagsOf = new Map<string, string[]>()
      if (rows.length > 0) {
        const tagRows = await source.rows<{ short_url_id: number | string; name: string }>(
          `select st.short_url_id, g.name from ${t('short_urls_in_tags')} st join ${t('tags')} g on g.id = st.tag_id where st.short_url_id in (${rows.map(() => '?').join(', ')}) order by g.name`,
          rows.map((row) => row.id),
        )
        for (const tag of tagRows) {
          const list = tagsOf.get(String(tag.short_url_id)) ?? []
          list.push(tag.name)
          tagsOf.set(String(tag.short_url_id), list)
        }
      }
      return rows.map((row, index): DatabaseRow => {
        const given = tagsOf.get(String(row.id))
        const { tags, notes } = given ? fittedTags(given) : { tags: undefined, notes: [] as string[] }
        const expiresAt = row.valid_until === null || row.valid_until === undefined ? undefined : sourceTimestamp(row.valid_until)
        if (expiresAt && expiresAt <= nowTimestamp()) notes.push(`It expired in Shlink on ${expiresAt} (UTC): imported expired.`)
        const validSince = row.valid_since === null || row.valid_since === undefined ? undefined : sourceTimestamp(row.valid_since)
        if (validSince && validSince > nowTimestamp()) notes.push(`Shlink would answer it from ${validSince} (UTC) on; Linkwell has no start date: it answers now.`)
        const maxVisits = row.max_visits === null || row.max_visits === undefined ? undefined : Number(row.max_visits)
        const clicklimit = maxVisits !== undefined && Number.isInteger(maxVisits) && maxVisits >= 1 ? Math.min(maxVisits, MAX_CLICK_LIMIT) : undefined
        return {
          ...(expiresAt ? { stored: { expiresAt } } : {}),
          ...(notes.length > 0 ? { notes } : {}),
          line: offset + index + 1,
          key: String(row.id),
          input: {
            url: row.original_url,
            custom: row.short_code,
            ...(row.title ? { metatitle: row.title.slice(0, 200) } : {}),
            ...(row.domain ? { domain: domainOrigin(row.domain) } : {}),
            ...(tags && tags.length > 0 ? { tags } : {}),
            ...(clicklimit !== undefined ? { clicklimit } : {}),
          },
          createdAt: sourceTimestamp(row.date_created),
        }
      })
    },

    async clicks(cursor, limit) {
      const rows = await source.rows<ShlinkVisit>(
        `select v.id, v.short_url_id, v.date, v.referer, v.user_agent, l.country_code from ${t('visits')} v left join ${t('visit_locations')} l on l.id = v.visit_location_id ` +
        'where v.id > ? and v.short_url_id is not null order by v.id limit ?',
        [Number(cursor), limit],
      )
      if (rows.length === 0) return undefined
      return {
        last: String(rows[rows.length - 1]!.id),
        clicks: rows.flatMap((visit) => {
          const createdAt = sourceTimestamp(visit.date)
          if (!createdAt) return []
          return [{
            linkKey: String(visit.short_url_id),
            createdAt,
            referrerHost: visit.referer ? referrerHostOf(visit.referer) : null,
            country: countryCodeOf(visit.country_code),
            agent: describe(visit.user_agent ?? ''),
          }]
        }),
      }
    },
  }
}
