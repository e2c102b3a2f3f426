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
  }
}

export type PlanRepository = ReturnType<typeof createPlanRepository>
