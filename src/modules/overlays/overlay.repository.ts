// SQL for CTA overlays. Every method is scoped by account id.
import type { DB } from '../../db/database.js'
import type { OverlayRow } from '../../db/schema.js'
import type { ConfigValue } from './config-json.js'
import { createConfigRowsRepository } from './config-rows.repository.js'
import { nowTimestamp } from '../../core/time.js'

export function createOverlayRepository(db: DB) {
  return {
    ...createConfigRowsRepository(db, 'overlays'),

    async insert(accountId: number, input: { type: string; name: string; config: Record<string, ConfigValue> }): Promise<OverlayRow> {
      return db
        .insertInto('overlays')
        .values({ account_id: accountId, type: input.type, name: input.name, config: JSON.stringify(input.config), created_at: nowTimestamp() })
        .returningAll()
        .executeTakeFirstOrThrow()
    },
  }
}

export type OverlayRepository = ReturnType<typeof createOverlayRepository>
