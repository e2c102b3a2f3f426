// SQL for accounts (with their plan's code, rate and limits; plans themselves: modules/plans).
import type { DB } from '../../db/database.js'
import { fetchPage } from '../../db/paging.js'
import type { AccountRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'
import { createPeopleRepository } from './people.repository.js'

/** A workspace's conversion settings (ADR 034). */
export interface ConversionSettings {
  /** Links created without `trackconversions` track them. */
  trackConversions: boolean
  /** The query parameter a click id is appended as. */
  clickIdParameter: string
  /** Visitors' query strings reach destinations of links that do not say otherwise. */
  queryPassthrough: boolean
  /** Days after a click a lead can still be attributed to it. */
  attributionDays: number
  /** Origins whose pages may call the tracking API from a browser. */
  trackingOrigins: string[]
  /** Customers' e-mail addresses are stored (false: left out, privacy). */
  customerEmails: boolean
}

/** The settings of a stored workspace row. */
export function conversionSettingsOf(row: Pick<AccountRow, 'track_conversions' | 'click_id_parameter' | 'query_passthrough' | 'attribution_days' | 'tracking_origins' | 'customer_emails'>): ConversionSettings {
  return {
    trackConversions: row.track_conversions === 1,
    clickIdParameter: row.click_id_parameter,
    queryPassthrough: row.query_passthrough === 1,
    attributionDays: Number(row.attribution_days),
    trackingOrigins: row.tracking_origins === '' ? [] : row.tracking_origins.split('\n'),
    customerEmails: row.customer_emails === 1,
  }
}

export interface AccountWithPlan extends AccountRow {
  plan_code: string
  plan_apirate: number | null
  plan_limits: string
}

export interface NewAccountInput {
  email: string
  username: string
  planId: number
  planExpires: string | null
  isAdmin: boolean
}

export function createAccountRepository(db: DB) {
  const withPlan = () =>
    db
      .selectFrom('accounts')
      .innerJoin('plans', 'plans.id', 'accounts.plan_id')
      .selectAll('accounts')
      .select(['plans.code as plan_code', 'plans.apirate as plan_apirate', 'plans.limits as plan_limits'])

  return {
    /** The people who sign in to accounts and their memberships, on the same executor. */
    people: createPeopleRepository(db),

    async findById(id: number): Promise<AccountWithPlan | undefined> {
      return withPlan().where('accounts.id', '=', id).executeTakeFirst()
    },

    async findByEmail(email: string): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst()
    },

    async findByUsername(username: string): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').selectAll().where('username', '=', username).executeTakeFirst()
    },

    async countAll(): Promise<number> {
      const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
      return Number(row.count)
    },

    async listPage(page: PageRequest) {
      return fetchPage(db.selectFrom('accounts').innerJoin('plans', 'plans.id', 'accounts.plan_id'), page, (q) =>
        q
          .selectAll('accounts')
          .select(['plans.code as plan_code', 'plans.apirate as plan_apirate', 'plans.limits as plan_limits'])
          .orderBy('accounts.id', 'desc'),
      ) as Promise<{ rows: AccountWithPlan[]; total: number }>
    },

    async insert(input: NewAccountInput): Promise<number> {
      const row = await db
        .insertInto('accounts')
        .values({
          email: input.email,
          username: input.username,
          // Passwords are people's since migration 020.
          password_hash: null,
          avatar: null,
          plan_id: input.planId,
          plan_expires: input.planExpires,
          is_admin: input.isAdmin ? 1 : 0,
          is_suspended: 0,
          created_at: nowTimestamp(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },

    /** Passwords are people's (people.repository.ts). */
    async update(id: number, changes: { email?: string; planId?: number; planExpires?: string | null; timeZone?: string } & Partial<ConversionSettings>) {
      const values: Record<string, unknown> = {}
      if (changes.timeZone !== undefined) values.time_zone = changes.timeZone
      if (changes.trackConversions !== undefined) values.track_conversions = changes.trackConversions ? 1 : 0
      if (changes.clickIdParameter !== undefined) values.click_id_parameter = changes.clickIdParameter
      if (changes.queryPassthrough !== undefined) values.query_passthrough = changes.queryPassthrough ? 1 : 0
      if (changes.attributionDays !== undefined) values.attribution_days = changes.attributionDays
      if (changes.trackingOrigins !== undefined) values.tracking_origins = changes.trackingOrigins.join('\n')
      if (changes.customerEmails !== undefined) values.customer_emails = changes.customerEmails ? 1 : 0
      if (changes.email !== undefined) values.email = changes.email
      if (changes.planId !== undefined) values.plan_id = changes.planId
      if (changes.planExpires !== undefined) values.plan_expires = changes.planExpires
      if (Object.keys(values).length === 0) return
      await db.updateTable('accounts').set(values).where('id', '=', id).execute()
    },

    /** The workspace's conversion settings (migration 036, ADR 034); undefined for no such workspace. */
    async findConversionSettings(id: number): Promise<ConversionSettings | undefined> {
      const row = await db
        .selectFrom('accounts')
        .select(['track_conversions', 'click_id_parameter', 'query_passthrough', 'attribution_days', 'tracking_origins', 'customer_emails'])
        .where('id', '=', id)
        .executeTakeFirst()
      return row && conversionSettingsOf(row)
    },

    /** The workspace's Stripe webhook token and sealed signing secret (null: none set). */
    async findStripeSettings(id: number): Promise<{ token: string | null; secret: string | null } | undefined> {
      const row = await db.selectFrom('accounts').select(['stripe_webhook_token', 'stripe_signing_secret']).where('id', '=', id).executeTakeFirst()
      return row && { token: row.stripe_webhook_token, secret: row.stripe_signing_secret }
    },

    /** The workspace whose Stripe webhook address has `token`, with its sealed signing secret. */
    async findByStripeToken(token: string): Promise<{ id: number; secret: string } | undefined> {
      const row = await db.selectFrom('accounts').select(['id', 'stripe_signing_secret']).where('stripe_webhook_token', '=', token).executeTakeFirst()
      return row && row.stripe_signing_secret !== null ? { id: row.id, secret: row.stripe_signing_secret } : undefined
    },

    /** Sets (or, null, removes) the Stripe signing secret; the address's token is kept once made. */
    async setStripeSecret(id: number, sealedSecret: string | null, token: string): Promise<void> {
      await db.updateTable('accounts').set({ stripe_signing_secret: sealedSecret, stripe_webhook_token: token }).where('id', '=', id).execute()
    },

    /** Every account, oldest first (the CLI listing). */
    async listAll(): Promise<AccountWithPlan[]> {
      return withPlan().orderBy('accounts.id', 'asc').execute()
    },

    async setSuspended(id: number, suspended: boolean): Promise<boolean> {
      const result = await db.updateTable('accounts').set({ is_suspended: suspended ? 1 : 0 }).where('id', '=', id).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    async delete(id: number): Promise<boolean> {
      const result = await db.deleteFrom('accounts').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}

export type AccountRepository = ReturnType<typeof createAccountRepository>
