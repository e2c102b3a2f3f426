// Click analytics (issue: click analytics): counters per item, per day and per dimension, kept in
// step with the raw clicks as they are written, so statistics never read the raw events; the
// visitors seen per item and day (daily-unique flag); campaign rotator views. Clicks recorded
// before this migration are counted into the aggregates here (their enrichment is unknown).
import { sql, type ColumnDefinitionBuilder, type Kysely, type RawBuilder } from 'kysely'
import { dialectOf } from '../dialect.js'

// Stored values of the raw clicks per dimension, '' for unknown (the click writer's rule).
const DIMENSION_COLUMNS: Record<string, RawBuilder<unknown>> = {
  country: sql`coalesce(country, '')`,
  referrer: sql`coalesce(referrer_host, '')`,
  browser: sql`coalesce(browser, '')`,
  os: sql`coalesce(os, '')`,
  device: sql`coalesce(device, '')`,
  language: sql`coalesce(language, '')`,
}

// decisions §7, as socialNetworkOf (src/analytics/visitor-reading.ts) classifies referrer hosts.
const SOCIAL = sql`case
  when referrer_host in ('facebook.com', 'fb.com', 'fb.me', 'messenger.com') or referrer_host like '%.facebook.com' or referrer_host like '%.fb.com' or referrer_host like '%.messenger.com' then 'facebook'
  when referrer_host in ('twitter.com', 'x.com', 't.co') or referrer_host like '%.twitter.com' or referrer_host like '%.x.com' or referrer_host like '%.t.co' then 'twitter'
  when referrer_host = 'instagram.com' or referrer_host like '%.instagram.com' then 'instagram'
  when referrer_host in ('linkedin.com', 'lnkd.in') or referrer_host like '%.linkedin.com' or referrer_host like '%.lnkd.in' then 'linkedin'
  else '' end`

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db)
  // Byte order on PostgreSQL too, so ties in a top list are broken the same way on both.
  const value = (col: ColumnDefinitionBuilder) => (dialect === 'postgres' ? col.notNull().modifyEnd(sql`collate "C"`) : col.notNull())
  // Counters may pass 2^31 on a busy server; SQLite's integers are 64-bit already.
  const counter = dialect === 'postgres' ? 'bigint' : 'integer'

  // dimension: clicks | unique (value '') | country | referrer | browser | os | device | language |
  // social; value '' means unknown (or, for referrers, a direct visit).
  await db.schema
    .createTable('click_days')
    .addColumn('item_type', 'text', (col) => col.notNull())
    .addColumn('item_id', 'integer', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('dimension', 'text', (col) => col.notNull())
    .addColumn('value', 'text', value)
    .addColumn('clicks', counter, (col) => col.notNull())
    .addPrimaryKeyConstraint('click_days_pk', ['item_type', 'item_id', 'day', 'dimension', 'value'])
    .execute()

  // All-time counters: what the statistics object reads. The second index serves "top 10 by
  // count" as a range scan however many distinct values (referrer hosts) an item collects.
  await db.schema
    .createTable('click_totals')
    .addColumn('item_type', 'text', (col) => col.notNull())
    .addColumn('item_id', 'integer', (col) => col.notNull())
    .addColumn('dimension', 'text', (col) => col.notNull())
    .addColumn('value', 'text', value)
    .addColumn('clicks', counter, (col) => col.notNull())
    .addPrimaryKeyConstraint('click_totals_pk', ['item_type', 'item_id', 'dimension', 'value'])
    .execute()
  await db.schema.createIndex('click_totals_top_idx').on('click_totals').columns(['item_type', 'item_id', 'dimension', 'clicks desc', 'value']).execute()

  // Visitor hashes seen per item and day: the first insert of a (day, item, hash) marks the click
  // unique, exactly, also across instances. Only today's and yesterday's rows are ever needed.
  await db.schema
    .createTable('click_visitors')
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('item_type', 'text', (col) => col.notNull())
    .addColumn('item_id', 'integer', (col) => col.notNull())
    .addColumn('visitor_hash', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('click_visitors_pk', ['day', 'item_type', 'item_id', 'visitor_hash'])
    .execute()

  await db.schema.alterTable('campaigns').addColumn('views', counter, (col) => col.notNull().defaultTo(0)).execute()
  if (dialect === 'postgres') {
    for (const [table, column] of [['links', 'clicks'], ['links', 'unique_clicks'], ['qr_codes', 'scans']] as const) {
      await db.schema.alterTable(table).alterColumn(column, (col) => col.setDataType('bigint')).execute()
    }
  }

  // Clicks recorded before this migration, counted as the writer would have (their country,
  // browser, OS and device were never known: ''; none was flagged unique).
  const day = sql`substr(created_at, 1, 10)`
  await sql`insert into click_days (item_type, item_id, day, dimension, value, clicks)
    select item_type, item_id, ${day}, 'clicks', '', count(*) from clicks group by item_type, item_id, ${day}`.execute(db)
  for (const [dimension, column] of [...Object.entries(DIMENSION_COLUMNS), ['social', SOCIAL] as const]) {
    await sql`insert into click_days (item_type, item_id, day, dimension, value, clicks)
      select item_type, item_id, ${day}, ${dimension}, ${column}, count(*) from clicks
      group by item_type, item_id, ${day}, ${column}`.execute(db)
  }
  await sql`delete from click_days where dimension = 'social' and value = ''`.execute(db)
  await sql`insert into click_totals (item_type, item_id, dimension, value, clicks)
    select item_type, item_id, dimension, value, sum(clicks) from click_days group by item_type, item_id, dimension, value`.execute(db)
  await sql`update campaigns set views = (select count(*) from clicks where item_type = 'campaign' and item_id = campaigns.id)`.execute(db)
  // Visitor hashes now use a random salt per day (deleted after two days), not one derived from
  // a lasting secret.
  await sql`delete from settings where key = 'visitor_hash_secret'`.execute(db)
  // User agents are no longer kept (with a visitor hash they single people out).
  await sql`update clicks set user_agent = null where user_agent is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('campaigns').dropColumn('views').execute()
  for (const table of ['click_visitors', 'click_totals', 'click_days']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
