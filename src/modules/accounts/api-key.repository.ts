// SQL for API keys. Keys are stored as SHA-256 hashes only.
import type { DB } from '../../db/database.js'
import type { ApiKeyRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import { toStoredScope, type ApiKeyScope } from '../access/api-key-scopes.js'

export function createApiKeyRepository(db: DB) {
  return {
    async insert(accountId: number, input: { name: string; keyHash: string; keyPrefix: string; expiresAt: string | null; scope: ApiKeyScope; personId: number }) {
      const row = await db
        .insertInto('api_keys')
        .values({
          account_id: accountId,
          name: input.name,
          key_hash: input.keyHash,
          key_prefix: input.keyPrefix,
          expires_at: input.expiresAt,
          created_at: nowTimestamp(),
          person_id: input.personId,
          ...toStoredScope(input.scope),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },

    async listForAccount(accountId: number): Promise<ApiKeyRow[]> {
      return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id', 'asc').execute()
    },

    async touch(keyId: number, lastUsedAt: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: lastUsedAt }).where('id', '=', keyId).execute()
    },

    async delete(accountId: number, keyId: number): Promise<boolean> {
      const result = await db.deleteFrom('api_keys').where('account_id', '=', accountId).where('id', '=', keyId).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}

export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>
