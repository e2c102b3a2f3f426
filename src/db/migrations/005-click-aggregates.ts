// Click analytics (issue: click analytics): counters per item, per day and per dimension, kept in
// step with the raw clicks as they are written, so statistics never read the raw events; the
// visitors seen per item and day (daily-unique flag); campaign rotator views. Clicks recorded
// before this migration are counted into the aggregates here (their enrichment is unknown).
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // dimension: clicks | unique (value '') | country | referrer | browser | os | device | language |
  // social; value '' means unknown (or, for referrers, a direct visit).
  await db.schema
    .createTable('click_days')
    .addColumn('item_type', 'text', (col) => col.notNull())
    .addColumn('item_id', 'integer', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('dimension', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('clicks', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('click_days_pk', ['item_type', 'item_id', 'day', 'dimension', 'value'])
    .execute()

  // All-time counters: what the statistics object reads. The second index serves "top 10 by
  // count" as a range scan however many distinct values (referrer hosts) an item collects.
  await db.schema
    .createTable('click_totals')
    .addColumn('item_type', 'text', (col) => col.notNull())
    .addColumn('item_id', 'integer', (col) => col.notNull())
    .addColumn('dimension', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('clicks', 'integer', (col) => col.notNull())
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

  await db.schema.alterTable('campaigns').addColumn('views', 'integer', (col) => col.notNull().defaultTo(0)).execute()

  // Earlier clicks: counted per day and in total, with their referrers; the rest is unknown.
  const day = sql`substr(created_at, 1, 10)`
  const referrer = sql`coalesce(referrer_host, '')`
  await sql`insert into click_days (item_type, item_id, day, dimension, value, clicks)
    select item_type, item_id, ${day}, 'clicks', '', count(*) from clicks group by item_type, item_id, ${day}`.execute(db)
  await sql`insert into click_days (item_type, item_id, day, dimension, value, clicks)
    select item_type, item_id, ${day}, 'referrer', ${referrer}, count(*) from clicks group by item_type, item_id, ${day}, ${referrer}`.execute(db)
  await sql`insert into click_totals (item_type, item_id, dimension, value, clicks)
    select item_type, item_id, dimension, value, sum(clicks) from click_days group by item_type, item_id, dimension, value`.execute(db)
  await sql`update campaigns set views = (select count(*) from clicks where item_type = 'campaign' and item_id = campaigns.id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('campaigns').dropColumn('views').execute()
  for (const table of ['click_visitors', 'click_totals', 'click_days']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
