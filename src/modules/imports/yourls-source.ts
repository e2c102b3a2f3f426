// YOURLS as an import's source (issue 21): its MySQL/MariaDB tables as YOURLS itself creates them
// (YOURLS/YOURLS includes/functions-install.php, yourls_create_sql_tables):
//   `{prefix}url` (keyword varchar(100) utf8mb4_bin primary key, url text, title text, timestamp
//   timestamp, ip varchar(41), clicks int unsigned) and
//   `{prefix}log` (click_id int auto_increment primary key, click_time datetime, shorturl
//   varchar(100), referrer varchar(200) — 'direct' when none —, user_agent varchar(255),
//   ip_address varchar(41), country_code char(2)).
// Read in pages (keyword order for links, link order for clicks), never written.
import type { MysqlSource } from '../../db/mysql-source.js'
import { ValidationError } from '../../core/errors.js'
import type { SourceRow } from './file-sources.js'
import { countryCodeOf, type SourceReader } from './source-reader.js'
import { referrerHostOf, describeUserAgent, type AgentDescription } from '../../analytics/visitor-reading.js'
import { memoize } from '../../core/memoize.js'

export interface YourlsLink {
  keyword: string
  url: string
  title: string | null
  timestamp: string
}

export interface YourlsClick {
  click_id: number
  click_time: string
  shorturl: string
  referrer: string
  user_agent: string
  country_code: string
}

/** Checks the prefix (it is part of table names) and that both tables are there; throws a one-line reason. */
export async function checkYourlsTables(source: MysqlSource, prefix: string): Promise<void> {
  if (!/^[A-Za-z0-9_]{0,40}$/.test(prefix)) throw ValidationError.field('prefix', 'must be letters, digits and underscores')
  for (const table of [`${prefix}url`, `${prefix}log`]) {
    const found = await source.rows<{ name: string }>('select table_name as name from information_schema.tables where table_schema = database() and table_name = ?', [table])
    if (found.length === 0) throw new ValidationError(`The YOURLS table "${table}" is not in the source database (check --prefix).`)
  }
}

/** The keyset parameters (link, link, id) of a link-order cursor `["shorturl", click_id]` (what `clicks` answered as `last`). */
function linkOrderParametersOf(cursor: string): [string, string, number] {
  const parsed: unknown = JSON.parse(cursor)
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || !Number.isSafeInteger(parsed[1])) throw new Error(`not a YOURLS click cursor: ${cursor}`)
  return [parsed[0], parsed[0], parsed[1] as number]
}

export function createYourlsReader(source: MysqlSource, prefix: string): SourceReader {
  const describe = memoize<AgentDescription>(describeUserAgent, 2_000)
  return {
    /** Links in keyword order from `offset` on. */
    async links(offset: number, limit: number): Promise<SourceRow[]> {
      const rows = await source.rows<YourlsLink>(`select keyword, url, title, timestamp from \`${prefix}url\` order by keyword limit ? offset ?`, [limit, offset])
      return rows.map((row, index) => ({
        // Its position in keyword order: the report's "line" of a database row.
        line: offset + index + 1,
        key: row.keyword,
        input: { url: row.url, custom: row.keyword, ...(row.title ? { metatitle: row.title.slice(0, 200) } : {}) },
        createdAt: row.timestamp.slice(0, 19),
      }))
    },

    /**
     * Clicks in link order (`shorturl`, then `click_id`: YOURLS' own `shorturl` index, which holds
     * the primary key too), after the cursor `["shorturl", click_id]` of the last click read. In
     * link order a page's clicks belong to a few hundred links, so the counters they add to are
     * neighbours in Linkwell's tables; in click order every page reached across all of them, and the
     * import slowed as they grew (ADR 021). A plain number is a cursor in click-id order, the order
     * jobs started before this one read in: such a job reads on in that order.
     */
    async clicks(cursor: string, limit: number) {
      const byId = /^\d+$/.test(cursor) && cursor !== '0'
      const [after, order, parameters]: [string, string, unknown[]] = byId
        ? ['where click_id > ?', 'click_id', [Number(cursor)]]
        : cursor === '0'
          ? ['', 'shorturl, click_id', []]
          : ['where shorturl > ? or (shorturl = ? and click_id > ?)', 'shorturl, click_id', linkOrderParametersOf(cursor)]
      const rows = await source.rows<YourlsClick>(`select click_id, click_time, shorturl, referrer, user_agent, country_code from \`${prefix}log\` ${after} order by ${order} limit ?`, [...parameters, limit])
      if (rows.length === 0) return undefined
      const lastRow = rows[rows.length - 1]!
      return {
        last: byId ? String(lastRow.click_id) : JSON.stringify([lastRow.shorturl, lastRow.click_id]),
        clicks: rows.map((click) => ({
          linkKey: click.shorturl,
          createdAt: click.click_time.slice(0, 19),
          // YOURLS writes "direct" when the visit had none.
          referrerHost: click.referrer && click.referrer !== 'direct' ? referrerHostOf(click.referrer) : null,
          country: countryCodeOf(click.country_code),
          agent: describe(click.user_agent),
        })),
      }
    },
  }
}
