// Conversions (issue 39, ADR 034): a click id made at redirect time and stored with the click, the
// workspace's settings for it (the parameter's name, whether new links track conversions, whether
// visitors' query strings reach destinations, the attribution window). A link's own switches are
// link options (links.options JSON, ADR 020): `trackconversions` and `passthrough`.
import type { Kysely } from 'kysely'
import { addIdColumn, dialectOf } from '../dialect.js'

export async function up(db: Kysely<any>): Promise<void> {
  // The unguessable id of a click of a link that tracks conversions; null for every other click.
  await db.schema.alterTable('clicks').addColumn('click_id', 'text').execute()
  await db.schema.createIndex('clicks_click_id').on('clicks').column('click_id').execute()
  // 1: links created without `trackconversions` track them.
  await db.schema.alterTable('accounts').addColumn('track_conversions', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('accounts').addColumn('click_id_parameter', 'text', (col) => col.notNull().defaultTo('lw_id')).execute()
  // 0 for every workspace: visitors' query strings were never passed on, and no client sees a change it did not ask for (ADR 034).
  await db.schema.alterTable('accounts').addColumn('query_passthrough', 'integer', (col) => col.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('accounts').addColumn('attribution_days', 'integer', (col) => col.notNull().defaultTo(90)).execute()
  // Origins whose pages may call the tracking API from a browser (CORS), newline-separated.
  await db.schema.alterTable('accounts').addColumn('tracking_origins', 'text', (col) => col.notNull().defaultTo('')).execute()
  // 0: customers' e-mail addresses are never stored (privacy, issue 39).
  await db.schema.alterTable('accounts').addColumn('customer_emails', 'integer', (col) => col.notNull().defaultTo(1)).execute()
  // The Stripe receiver (POST /api/integrations/stripe/webhook/{token}): the address's unguessable
  // token, and the endpoint's signing secret (whsec_…, sealed with SECRETS_KEY when set).
  await db.schema.alterTable('accounts').addColumn('stripe_webhook_token', 'text').execute()
  await db.schema.alterTable('accounts').addColumn('stripe_signing_secret', 'text').execute()
  await db.schema.createIndex('accounts_stripe_webhook_token').on('accounts').column('stripe_webhook_token').unique().execute()

  const dialect = dialectOf(db)
  // The site's own customers, by the id the site gave (`customer.id`); personal fields removable.
  await addIdColumn(db.schema.createTable('customers'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('external_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('customers_account_external').on('customers').columns(['account_id', 'external_id']).unique().execute()

  // A lead: a customer tied to the click (and so the link) that brought them; one per customer and event.
  await addIdColumn(db.schema.createTable('leads'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('click_id', 'text', (col) => col.notNull())
    // The link clicked, kept when the link is deleted (its figures are history).
    .addColumn('link_id', 'integer', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('metadata', 'text')
    .addColumn('clicked_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('leads_customer_event').on('leads').columns(['customer_id', 'event']).unique().execute()
  await db.schema.createIndex('leads_account_created').on('leads').columns(['account_id', 'created_at']).execute()

  // A sale (a negative amount: a refund), attributed to a click through the customer's lead or a click id.
  await addIdColumn(db.schema.createTable('sales'), dialect)
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    // Null once the customer is deleted (privacy): the sale stays, anonymous.
    .addColumn('customer_id', 'integer', (col) => col.references('customers.id').onDelete('set null'))
    .addColumn('click_id', 'text')
    .addColumn('link_id', 'integer')
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('invoice_id', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('metadata', 'text')
    // api | stripe
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('clicked_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('sales_account_invoice').on('sales').columns(['account_id', 'invoice_id']).unique().execute()
  await db.schema.createIndex('sales_account_created').on('sales').columns(['account_id', 'created_at']).execute()

  // What a tracking request with an `Idempotency-Key` was answered, so that a repeat gets the same answer.
  await db.schema.createTable('tracking_requests')
    .addColumn('account_id', 'integer', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (col) => col.notNull())
    .addColumn('endpoint', 'text', (col) => col.notNull())
    .addColumn('status', 'integer', (col) => col.notNull())
    .addColumn('response', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('tracking_requests_pkey', ['account_id', 'idempotency_key'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tracking_requests', 'sales', 'leads', 'customers']) await db.schema.dropTable(table).execute()
  await db.schema.dropIndex('accounts_stripe_webhook_token').execute()
  for (const column of ['stripe_signing_secret', 'stripe_webhook_token', 'customer_emails', 'tracking_origins', 'attribution_days', 'query_passthrough', 'click_id_parameter', 'track_conversions']) {
    await db.schema.alterTable('accounts').dropColumn(column).execute()
  }
  await db.schema.dropIndex('clicks_click_id').execute()
  await db.schema.alterTable('clicks').dropColumn('click_id').execute()
}
