// SQL for custom splash pages. Every method is scoped by account id.
import type { DB } from '../../db/database.js'
import type { SplashPageRow } from '../../db/schema.js'
import type { ConfigValue } from '../overlays/config-json.js'
import { createConfigRowsRepository } from '../overlays/config-rows.repository.js'
import { nowTimestamp } from '../../core/time.js'

export function createSplashPageRepository(db: DB) {
  return {
    ...createConfigRowsRepository(db, 'splash_pages'),

    async insert(accountId: number, input: { name: string; config: Record<string, ConfigValue> }): Promise<SplashPageRow> {
      return db
        .insertInto('splash_pages')
        .values({ account_id: accountId, name: input.name, config: JSON.stringify(input.config), created_at: nowTimestamp() })
        .returningAll()
        .executeTakeFirstOrThrow()
    },
  }
}

export type SplashPageRepository = ReturnType<typeof createSplashPageRepository>
