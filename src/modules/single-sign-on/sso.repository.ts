// SQL for single sign-on (ADR 033): the providers kept in the admin pages, people's identities at
// providers, sign-ins on their way to a provider, and each workspace's settings and group mapping.
import type { DB } from '../../db/database.js'
import type { SsoGroupRoleRow, SsoIdentityRow, SsoProviderRow, SsoWorkspaceRow } from '../../db/schema.js'
import { nowTimestamp } from '../../core/time.js'
import type { Role } from '../access/roles.js'

export interface NewProvider {
  name: string
  label: string
  issuer: string
  clientId: string
  /** As stored: sealed when SECRETS_KEY is set. */
  clientSecret: string
  groupClaim: string
  allowedDomains: string
}

export interface NewIdentity {
  provider: string
  subject: string
  personId: number
  email: string
  refreshToken: string | null
  groups: string[]
  checkedAt: string
}

export function createSsoRepository(db: DB) {
  return {
    async listProviders(): Promise<SsoProviderRow[]> {
      return db.selectFrom('sso_providers').selectAll().orderBy('id').execute()
    },

    async findProviderByName(name: string): Promise<SsoProviderRow | undefined> {
      return db.selectFrom('sso_providers').selectAll().where('name', '=', name).executeTakeFirst()
    },

    async findProviderById(id: number): Promise<SsoProviderRow | undefined> {
      return db.selectFrom('sso_providers').selectAll().where('id', '=', id).executeTakeFirst()
    },

    async insertProvider(provider: NewProvider): Promise<number> {
      const row = await db
        .insertInto('sso_providers')
        .values({ name: provider.name, label: provider.label, issuer: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret, group_claim: provider.groupClaim, allowed_domains: provider.allowedDomains, created_at: nowTimestamp() })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    },

    /** Changes a provider; `clientSecret` undefined keeps the stored one. */
    async updateProvider(id: number, provider: Omit<NewProvider, 'name' | 'clientSecret'> & { clientSecret?: string }): Promise<boolean> {
      const result = await db
        .updateTable('sso_providers')
        .set({ label: provider.label, issuer: provider.issuer, client_id: provider.clientId, group_claim: provider.groupClaim, allowed_domains: provider.allowedDomains, ...(provider.clientSecret === undefined ? {} : { client_secret: provider.clientSecret }) })
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    async deleteProvider(id: number): Promise<boolean> {
      const result = await db.deleteFrom('sso_providers').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    /** Keeps a sign-in's secrets until its callback (or until it expires). */
    async insertAttempt(attempt: { stateHash: string; provider: string; nonce: string; codeVerifier: string; expiresAt: string }): Promise<void> {
      await db.deleteFrom('sso_sign_in_attempts').where('expires_at', '<=', nowTimestamp()).execute()
      await db.insertInto('sso_sign_in_attempts').values({ state_hash: attempt.stateHash, provider: attempt.provider, nonce: attempt.nonce, code_verifier: attempt.codeVerifier, expires_at: attempt.expiresAt }).execute()
    },

    /** Takes a sign-in's secrets out, once: a second callback with the same state finds nothing. */
    async takeAttempt(stateHash: string, now: string): Promise<{ provider: string; nonce: string; code_verifier: string } | undefined> {
      const row = await db.selectFrom('sso_sign_in_attempts').select(['provider', 'nonce', 'code_verifier', 'expires_at']).where('state_hash', '=', stateHash).executeTakeFirst()
      if (!row) return undefined
      const deleted = await db.deleteFrom('sso_sign_in_attempts').where('state_hash', '=', stateHash).executeTakeFirst()
      if (Number(deleted.numDeletedRows) === 0 || row.expires_at <= now) return undefined
      return row
    },

    async findIdentity(provider: string, subject: string): Promise<SsoIdentityRow | undefined> {
      return db.selectFrom('sso_identities').selectAll().where('provider', '=', provider).where('subject', '=', subject).executeTakeFirst()
    },

    async findIdentityOfPerson(provider: string, personId: number): Promise<SsoIdentityRow | undefined> {
      return db.selectFrom('sso_identities').selectAll().where('provider', '=', provider).where('person_id', '=', personId).executeTakeFirst()
    },

    async insertIdentity(identity: NewIdentity): Promise<void> {
      await db
        .insertInto('sso_identities')
        .values({ provider: identity.provider, subject: identity.subject, person_id: identity.personId, email: identity.email, refresh_token: identity.refreshToken, groups: JSON.stringify(identity.groups), checked_at: identity.checkedAt, created_at: identity.checkedAt })
        .execute()
    },

    /** What the last sign-in or recheck read; `refreshToken` undefined keeps the stored one. */
    async updateIdentity(id: number, facts: { email?: string; refreshToken?: string | null; groups: string[]; checkedAt: string }): Promise<void> {
      await db
        .updateTable('sso_identities')
        .set({ groups: JSON.stringify(facts.groups), checked_at: facts.checkedAt, ...(facts.email === undefined ? {} : { email: facts.email }), ...(facts.refreshToken === undefined ? {} : { refresh_token: facts.refreshToken }) })
        .where('id', '=', id)
        .execute()
    },

    /**
     * Identities whose groups were last read before `before`, each taken by moving its check time to
     * `now` only if nobody else did first (several instances share the work without a lock).
     */
    async claimDueForRecheck(before: string, now: string, limit: number): Promise<SsoIdentityRow[]> {
      const due = await db.selectFrom('sso_identities').selectAll().where('checked_at', '<', before).orderBy('checked_at').limit(limit).execute()
      const claimed: SsoIdentityRow[] = []
      for (const row of due) {
        const result = await db.updateTable('sso_identities').set({ checked_at: now }).where('id', '=', row.id).where('checked_at', '=', row.checked_at).executeTakeFirst()
        if (Number(result.numUpdatedRows) > 0) claimed.push(row)
      }
      return claimed
    },

    async findWorkspace(accountId: number): Promise<SsoWorkspaceRow | undefined> {
      return db.selectFrom('sso_workspaces').selectAll().where('account_id', '=', accountId).executeTakeFirst()
    },

    /** Workspaces whose groups come from `provider`, with their mappings. */
    async listMappedWorkspaces(provider: string): Promise<Array<{ account_id: number; group_name: string; role: string }>> {
      return db
        .selectFrom('sso_workspaces')
        .innerJoin('sso_group_roles', 'sso_group_roles.account_id', 'sso_workspaces.account_id')
        .select(['sso_workspaces.account_id', 'sso_group_roles.group_name', 'sso_group_roles.role'])
        .where('sso_workspaces.provider', '=', provider)
        .orderBy('sso_workspaces.account_id')
        .execute()
    },

    async listGroupRoles(accountId: number): Promise<SsoGroupRoleRow[]> {
      return db.selectFrom('sso_group_roles').selectAll().where('account_id', '=', accountId).orderBy('group_name').execute()
    },

    /** Replaces the workspace's settings and its whole mapping. */
    async saveWorkspace(accountId: number, settings: { provider: string; requireSso: boolean; mapping: Array<{ group: string; role: Role }> }): Promise<void> {
      const values = { provider: settings.provider, require_sso: settings.requireSso ? 1 : 0, updated_at: nowTimestamp() }
      await db.insertInto('sso_workspaces').values({ account_id: accountId, ...values }).onConflict((conflict) => conflict.column('account_id').doUpdateSet(values)).execute()
      await db.deleteFrom('sso_group_roles').where('account_id', '=', accountId).execute()
      if (settings.mapping.length > 0) {
        await db.insertInto('sso_group_roles').values(settings.mapping.map((entry) => ({ account_id: accountId, group_name: entry.group, role: entry.role }))).execute()
      }
    },

    /** Pending invitations to `email` in any workspace, oldest first (a first sign-in accepts them). */
    async listInvitationsFor(email: string, now: string): Promise<Array<{ id: number; account_id: number; role: string }>> {
      return db.selectFrom('invitations').select(['id', 'account_id', 'role']).where('email', '=', email).where('expires_at', '>', now).orderBy('id').execute()
    },

    /** The instance administration's workspace: where sign-ins refused before anyone is known are recorded. */
    async findAdministrationAccountId(): Promise<number | undefined> {
      const row = await db.selectFrom('accounts').select('id').where('is_admin', '=', 1).orderBy('id').executeTakeFirst()
      return row?.id
    },

    /** Whether the person owns a workspace that holds the instance's administration (break-glass, ADR 033). */
    async isInstanceAdministrator(personId: number): Promise<boolean> {
      const row = await db
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
        .select('memberships.account_id')
        .where('memberships.person_id', '=', personId)
        .where('memberships.role', '=', 'owner')
        .where('accounts.is_admin', '=', 1)
        .executeTakeFirst()
      return row !== undefined
    },
  }
}

export type SsoRepository = ReturnType<typeof createSsoRepository>
