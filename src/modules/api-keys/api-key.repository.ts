// SQL for API keys. Keys are stored as SHA-256 hashes only.
import type { DB } from '../../db/database.js'
import type { AccountRow, ApiKeyRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import { toStoredScope, type ApiKeyScope } from '../access/api-key-scopes.js'

/** A key found by its hash, with its account, the account's plan, its maker and the maker's current role in the account. */
export interface KeyHolder extends AccountRow {
  plan_code: string
  plan_apirate: number | null
  plan_limits: string
  key_id: number
  key_hash: string
  key_expires_at: string | null
  key_last_used_at: string | null
  key_scopes: string | null
  key_read_only: number
  key_person_id: number | null
  /** Null when the maker is no member of the account (any more). */
  key_role: string | null
}

export function createApiKeyRepository(db: DB) {
  return {
    /** The key with its account, plan, maker and the maker's role, in one read: every API request with a key not yet cached needs them. */
    async findByKeyHash(keyHash: string): Promise<KeyHolder | undefined> {
      return db
        .selectFrom('accounts')
        .innerJoin('plans', 'plans.id', 'accounts.plan_id')
        .innerJoin('api_keys', 'api_keys.account_id', 'accounts.id')
        .leftJoin('memberships', (join) => join.onRef('memberships.account_id', '=', 'api_keys.account_id').onRef('memberships.person_id', '=', 'api_keys.person_id'))
        .selectAll('accounts')
        .select(['plans.code as plan_code', 'plans.apirate as plan_apirate', 'plans.limits as plan_limits'])
        .select(['api_keys.id as key_id', 'api_keys.key_hash as key_hash', 'api_keys.expires_at as key_expires_at', 'api_keys.last_used_at as key_last_used_at', 'api_keys.scopes as key_scopes', 'api_keys.read_only as key_read_only', 'api_keys.person_id as key_person_id', 'memberships.role as key_role'])
        .where('api_keys.key_hash', '=', keyHash)
        .executeTakeFirst()
    },

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
