// API keys: issued (shown once, stored as a SHA-256 hash), listed, revoked, and checked on every
// request that carries one (the API gate asks `authenticate`, http/auth.ts). What a key may reach is
// its scope (modules/access/api-key-scopes.ts); who it acts as is the person who made it.
import { givenFields, type Actor, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { ApiKeyRepository } from './api-key.repository.js'
import { digestsEqual, generateApiKey, hashApiKey } from '../../core/secrets.js'
import { isExpired, nowTimestamp, toStoredTimestamp } from '../../core/time.js'
import { AuthenticationError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js'
import { ACCOUNT_TOPIC, ANNOUNCE_NOTHING, type Announcer } from '../../core/invalidation.js'
import { FULL_ACCESS, fromStoredScope, OUT_OF_SCOPE_MESSAGE, scopeWithin, type ApiKeyScope } from '../access/api-key-scopes.js'
import { toAuthenticatedAccount, type AuthenticatedAccount } from '../access/authenticated-account.js'
import { roleOf } from '../access/roles.js'

/** A further key: its name, expiry (stored timestamp or null) and scope (full access by default). */
export interface KeyRequest {
  name?: string
  expiresAt?: string | null
  scope?: ApiKeyScope
}

/** How stale a key's `last_used_at` (and a session's `last_seen_at`) may get: one write a minute, not one a request. */
export const LAST_USED_PRECISION_MS = 60_000

/** True when `stored` (a timestamp, or null) is older than LAST_USED_PRECISION_MS at `now`. */
export function isStale(stored: string | null, now: Date): boolean {
  return stored === null || stored < nowTimestamp(new Date(now.getTime() - LAST_USED_PRECISION_MS))
}

/** A new key of `accountId` made by `personId`, stored on `keys` (inside the caller's transaction); answers its id and the key, shown once. */
export async function issueKey(
  keys: ApiKeyRepository,
  key: { accountId: number; personId: number; name: string; expiresAt: string | null; scope?: ApiKeyScope; key?: string },
): Promise<{ id: number; key: string }> {
  const raw = key.key ?? generateApiKey()
  const id = await keys.insert(key.accountId, { name: key.name, keyHash: hashApiKey(raw), keyPrefix: raw.slice(0, 8), expiresAt: key.expiresAt, scope: key.scope ?? FULL_ACCESS, personId: key.personId })
  return { id, key: raw }
}

export interface ApiKeyServiceOptions {
  keys: Bindable<ApiKeyRepository>
  journal: ChangeJournal
  /**
   * The person a new key of the actor's account acts as: the actor's own, else (the command line)
   * the account's first owner; throws NotFoundError when the account is gone (the account service's
   * `personActingFor`, handed in by the composition root).
   */
  makerOf(actor: Actor): Promise<number>
  /** Hears of revoked keys, so that every instance's key cache drops them at once. */
  invalidation?: Announcer
}

export function createApiKeyService({ keys, journal, makerOf, invalidation = ANNOUNCE_NOTHING }: ApiKeyServiceOptions) {
  /**
   * A further key of the actor's account (rotation, or a limited key for an integration).
   * `creator`: the scope of the key asking for it over the API, which can hand out no more than it holds.
   */
  async function createKey(actor: Actor, request: KeyRequest = {}, creator: ApiKeyScope = FULL_ACCESS) {
    const scope = request.scope ?? creator
    if (!scopeWithin(scope, creator)) throw new ForbiddenError(OUT_OF_SCOPE_MESSAGE)
    // The key acts as the person who made it (the command line: as the account's first owner).
    const maker = await makerOf(actor)
    return journal.write(actor, async (trx) => {
      const issued = await issueKey(keys.in(trx), { accountId: actor.id, personId: maker, name: request.name ?? 'key', expiresAt: request.expiresAt ?? null, scope })
      return { result: issued, changes: [{ action: 'key.created', resource: 'key', resourceId: issued.id, fields: givenFields({ ...request, scope: request.scope }) }] }
    })
  }

  return {
    /** Resolves a raw key to its account; throws AuthenticationError when missing, unknown or expired. */
    async authenticate(rawKey: string | undefined, now = new Date()): Promise<AuthenticatedAccount> {
      if (!rawKey || rawKey.length > 256) throw AuthenticationError.missingKey()
      const keyHash = hashApiKey(rawKey)
      const account = await keys.findByKeyHash(keyHash)
      if (!account || !digestsEqual(account.key_hash, keyHash)) throw AuthenticationError.missingKey()
      if (isExpired(account.key_expires_at, nowTimestamp(now))) throw AuthenticationError.expiredKey()
      if (isStale(account.key_last_used_at, now)) await keys.touch(account.key_id, nowTimestamp(now))
      return toAuthenticatedAccount(account, {
        keyId: account.key_id,
        keyExpires: account.key_expires_at,
        keyScope: fromStoredScope(account.key_scopes, account.key_read_only),
        // The key acts as its maker, in the maker's role of this moment.
        personId: account.key_person_id,
        role: roleOf(account.key_role),
      })
    },

    createKey,

    /**
     * A key with a name (1 to 100 characters once trimmed; `key` when absent), a UTC
     * `YYYY-MM-DD[ HH:MM:SS]` expiry in the future or null/absent for never, and a scope within the
     * creator's: POST /api/key/add and `linkwell key create`. `creatorExpires`: when the key asking
     * for it stops working (stored timestamp; null: never, or no key). A key made by a key that
     * expires expires no later (ADR 027): a later expiry, or none, is capped at the creator's, so
     * a leaked key about to expire cannot mint one that outlives it. Answers the key (shown this
     * once) and what `listKeys` shows of it, the expiry as stored.
     */
    async createNamedKey(actor: Actor, request: { name?: string; expires?: string | null; scope?: ApiKeyScope }, creator: ApiKeyScope = FULL_ACCESS, creatorExpires: string | null = null) {
      const trimmed = (request.name ?? 'key').trim()
      if (trimmed.length < 1 || trimmed.length > 100) throw ValidationError.field('name', 'must be 1 to 100 characters')
      const expires = request.expires ?? null
      const asked = expires === null ? null : toStoredTimestamp(expires)
      if (asked === undefined) throw ValidationError.field('expires', 'is not a real calendar date-time')
      if (asked !== null && asked <= nowTimestamp()) throw ValidationError.field('expires', 'must be in the future')
      const expiresAt = creatorExpires !== null && (asked === null || asked > creatorExpires) ? creatorExpires : asked
      const scope = request.scope ?? creator
      const { id, key } = await createKey(actor, { name: trimmed, expiresAt, scope }, creator)
      return { id, key, name: trimmed, prefix: key.slice(0, 8), expires: expiresAt, scopes: scope.resources, readonly: scope.readOnly }
    },

    /** The account's keys, oldest first; never the keys themselves (only their first characters). */
    async listKeys(accountId: number) {
      const rows = await keys.listForAccount(accountId)
      return rows.map((row) => {
        const scope = fromStoredScope(row.scopes, row.read_only)
        return { id: row.id, name: row.name, prefix: row.key_prefix, expires: row.expires_at, created: row.created_at, lastused: row.last_used_at, scopes: scope.resources, readonly: scope.readOnly }
      })
    },

    async revokeKey(actor: Actor, keyId: number): Promise<void> {
      await journal.write(actor, async (trx) => {
        if (!(await keys.in(trx).delete(actor.id, keyId))) throw NotFoundError.of('API key')
        return { result: undefined, changes: [{ action: 'key.revoked', resource: 'key', resourceId: keyId, fields: [] }] }
      })
      invalidation.publish(ACCOUNT_TOPIC, String(actor.id))
    },
  }
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>
