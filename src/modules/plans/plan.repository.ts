// SQL for plans. Plans belong to the service, not to an account, so no account id here.
import type { DB } from '../../db/database.js'
import { fetchPage } from '../../db/paging.js'
import type { PlanRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

export interface NewPlanInput {
  name: string
  code: string
  apirate: number | null
  limits: Record<string, number>
}

export function createPlanRepository(db: DB) {
  return {
    async listPage(page: PageRequest) {
      return fetchPage(db.selectFrom('plans'), page, (q) => q.selectAll().orderBy('id', 'desc'))
    },

    async listAll(): Promise<PlanRow[]> {
      return db.selectFrom('plans').selectAll().orderBy('id', 'asc').execute()
    },

    async findById(id: number): Promise<PlanRow | undefined> {
      return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst()
    },

    async findByName(name: string): Promise<PlanRow | undefined> {
      return db.selectFrom('plans').selectAll().where('name', '=', name).executeTakeFirst()
    },

    async findByCode(code: string): Promise<PlanRow | undefined> {
      return db.selectFrom('plans').selectAll().where('code', '=', code).executeTakeFirst()
    },

    /** A plan named by its name or its code (the lowest id when both match different plans). */
    async findByNameOrCode(nameOrCode: string): Promise<PlanRow | undefined> {
      return db
        .selectFrom('plans')
        .selectAll()
        .where((eb) => eb.or([eb('name', '=', nameOrCode), eb('code', '=', nameOrCode)]))
        .orderBy('id')
        .executeTakeFirst()
    },

    /** The plan new accounts get. */
    async findDefault(): Promise<PlanRow> {
      const plan = await db.selectFrom('plans').selectAll().orderBy('is_default', 'desc').orderBy('id', 'asc').executeTakeFirst()
      if (!plan) throw new Error('No plan exists; the initial migration creates one.')
      return plan
    },

    async insert(input: NewPlanInput): Promise<PlanRow> {
      return db
        .insertInto('plans')
        .values({
          name: input.name,
          code: input.code,
          apirate: input.apirate,
          limits: JSON.stringify(input.limits),
          is_default: 0,
          created_at: nowTimestamp(),
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    },

    /** Replaces name, code, rate and limits; undefined when no such plan. Throws the driver's unique violation on a taken name. */
    async update(id: number, input: NewPlanInput): Promise<PlanRow | undefined> {
      return db
        .updateTable('plans')
        .set({ name: input.name, code: input.code, apirate: input.apirate, limits: JSON.stringify(input.limits) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst()
    },

    async countAccountsOn(id: number): Promise<number> {
      const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('count')).where('plan_id', '=', id).executeTakeFirstOrThrow()
      return Number(row.count)
    },

    /** Deletes the plan unless an account is on it (checked in the same statement); answers whether a row went. */
    async deleteIfUnused(id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('plans')
        .where('id', '=', id)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('accounts').select('accounts.id').where('accounts.plan_id', '=', id))))
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}

export type PlanRepository = ReturnType<typeof createPlanRepository>
