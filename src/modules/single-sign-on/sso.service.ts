// Signing in with an OpenID provider (issue 38, ADR 033): the providers offered, a sign-in sent to
// one, and its callback: the person matched by the provider's subject, linked once by a verified
// e-mail address, or created when the instance allows it; their groups mapped to roles in the
// workspaces that follow the provider; a session opened as a password sign-in opens one.
import { isUniqueViolation } from '../../db/errors.js'
import { hashApiKey } from '../../core/secrets.js'
import { MINUTE_MS, nowTimestamp } from '../../core/time.js'
import { ACCOUNT_TOPIC, type InvalidationBus } from '../../core/invalidation.js'
import type { SecretBox } from '../../core/secret-box.js'
import type { Bindable } from '../../db/transactions.js'
import type { ChangeJournal } from '../changes/change-journal.js'
import type { PeopleRepository } from '../accounts/people.repository.js'
import type { AccountRepository } from '../accounts/account.repository.js'
import type { SessionService, SignedIn, SignInClient } from '../accounts/session.service.js'
import type { InvitationRepository } from '../members/invitation.repository.js'
import { roleOf, ROLES, type Role } from '../access/roles.js'
import type { SsoRepository } from './sso.repository.js'
import type { OidcClient, ProviderClaims, ProviderSettings } from './oidc-client.js'
import { SingleSignOnError, type SingleSignOnReason } from './sso-errors.js'
import type { SsoProviders } from './sso-providers.js'

/** How long a sign-in may stay at the provider before its callback is refused. */
export const SIGN_IN_MINUTES = 10

/** A provider as the sign-in page lists it. */
export interface OfferedProvider {
  name: string
  label: string
  /** False when the provider did not answer just now: the page says so and keeps the password form. */
  available: boolean
}

export interface SingleSignOnServiceOptions {
  sso: Bindable<SsoRepository>
  people: Bindable<PeopleRepository>
  accounts: AccountRepository
  invitations: Bindable<InvitationRepository>
  sessions: SessionService
  providers: SsoProviders
  oidc: OidcClient
  secrets: SecretBox
  journal: ChangeJournal
  invalidation: InvalidationBus
}

/** The highest of the roles the person's groups give, or null. */
export function mappedRole(mapping: ReadonlyArray<{ group_name: string; role: string }>, groups: readonly string[]): Role | null {
  let best: Role | null = null
  for (const entry of mapping) {
    const role = roleOf(entry.role)
    if (role && groups.includes(entry.group_name) && (best === null || ROLES.indexOf(role) > ROLES.indexOf(best))) best = role
  }
  return best
}

/** A username from the provider's name or the address's local part: 3 to 32 of letters, digits, _ and -. */
function usernameBase(claims: ProviderClaims): string {
  const source = claims.preferredName ?? claims.email?.split('@')[0] ?? 'person'
  const cleaned = source.replace(/@.*$/, '').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24)
  return cleaned.length >= 3 ? cleaned : `${cleaned}-sso`.replace(/^-/, 'sso')
}

export function createSingleSignOnService(options: SingleSignOnServiceOptions) {
  const { sso, people, accounts, invitations, sessions, providers, oidc, secrets, journal, invalidation } = options

  async function providerOrThrow(name: string | undefined): Promise<ProviderSettings> {
    const provider = await providers.find(name)
    if (!provider) throw SingleSignOnError.unknownProvider()
    return provider
  }

  async function freeUsername(claims: ProviderClaims): Promise<string> {
    const base = usernameBase(claims)
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const candidate = attempt === 0 ? base : `${base}-${attempt + 1}`
      if (!(await people.findByUsername(candidate)) && !(await accounts.findByUsername(candidate))) return candidate
    }
    return `${base}-${hashApiKey(claims.subject).slice(0, 8)}`
  }

  /**
   * Gives the person the role their groups map to in each workspace that follows `provider`:
   * added, changed, or removed (with the keys they made there) when no group maps any more.
   * The last owner of a workspace is never removed nor lowered by a mapping. Answers the
   * workspaces whose membership ended.
   */
  async function applyMapping(personId: number, provider: string, groups: readonly string[]): Promise<number[]> {
    const rows = await sso.listMappedWorkspaces(provider)
    const byWorkspace = new Map<number, Array<{ group_name: string; role: string }>>()
    for (const row of rows) byWorkspace.set(row.account_id, [...(byWorkspace.get(row.account_id) ?? []), row])
    const ended: number[] = []
    for (const [accountId, mapping] of byWorkspace) {
      const wanted = mappedRole(mapping, groups)
      const actor = { id: accountId, keyId: null, personId: null, via: 'system' as const, address: null }
      const changed = await journal.write(actor, async (trx) => {
        const members = people.in(trx)
        await members.lockMembers(accountId)
        const current = await members.findMembership(accountId, personId)
        const currentRole = roleOf(current?.role)
        if (currentRole === wanted) return { result: false, changes: [] }
        // A workspace keeps an owner: the mapping does not take away its last one.
        if (currentRole === 'owner' && (await members.countOwners(accountId)) <= 1) return { result: false, changes: [] }
        if (wanted === null) {
          await members.deleteMembership(accountId, personId)
          ended.push(accountId)
          return { result: true, changes: [{ action: 'member.removed', resource: 'member', resourceId: personId, fields: ['sso_groups'] }] }
        }
        if (current) await members.updateRole(accountId, personId, wanted)
        else await members.addMembership(accountId, personId, wanted)
        return { result: true, changes: [{ action: current ? 'member.role_changed' : 'member.added', resource: 'member', resourceId: personId, fields: ['role', 'sso_groups'] }] }
      })
      if (changed) invalidation.publish(ACCOUNT_TOPIC, String(accountId))
    }
    return ended
  }

  /** Where a change no workspace of the person holds is recorded: the administration's log, else the first of `fallback`. */
  async function auditAccount(fallback: number[]): Promise<number> {
    const accountId = (await sso.findAdministrationAccountId()) ?? fallback[0]
    if (accountId === undefined) throw SingleSignOnError.noWorkspace()
    return accountId
  }

  /** Accepts every pending invitation to the address (a first sign-in of someone invited). */
  async function acceptInvitations(personId: number, email: string, address: string): Promise<void> {
    for (const invitation of await sso.listInvitationsFor(email, nowTimestamp())) {
      const actor = { id: invitation.account_id, keyId: null, personId, via: 'dashboard' as const, address }
      await journal.write(actor, async (trx) => {
        if (!(await invitations.in(trx).consume(invitation.id))) return { result: undefined, changes: [] }
        if (await people.in(trx).findMembership(invitation.account_id, personId)) return { result: undefined, changes: [] }
        await people.in(trx).addMembership(invitation.account_id, personId, roleOf(invitation.role) ?? 'viewer')
        return { result: undefined, changes: [{ action: 'member.joined', resource: 'member', resourceId: personId, fields: ['role'] }] }
      })
      invalidation.publish(ACCOUNT_TOPIC, String(invitation.account_id))
    }
  }

  /**
   * The person these claims sign in. Two first sign-ins of one person at once (two tabs, a double
   * click) both find no identity; the second to write breaks a unique index (the subject, the
   * address or the username) and is answered by looking again, when the first one's rows are there.
   */
  async function personOf(provider: ProviderSettings, claims: ProviderClaims, address: string): Promise<number> {
    try {
      return await matchLinkOrCreate(provider, claims, address)
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      return matchLinkOrCreate(provider, claims, address)
    }
  }

  /** The person these claims sign in: matched, linked, or created when the instance allows it. */
  async function matchLinkOrCreate(provider: ProviderSettings, claims: ProviderClaims, address: string): Promise<number> {
    const at = nowTimestamp()
    const refreshToken = claims.refreshToken === undefined ? null : secrets.seal(claims.refreshToken)
    const identity = await sso.findIdentity(provider.name, claims.subject)
    if (identity) {
      await sso.updateIdentity(identity.id, { groups: claims.groups, checkedAt: at, refreshToken: refreshToken ?? undefined, ...(claims.email && claims.emailVerified ? { email: claims.email } : {}) })
      return identity.person_id
    }
    // Linking or creating stands on the address: only one the provider has verified.
    if (!claims.email || !claims.emailVerified) throw SingleSignOnError.unverifiedEmail()
    const known = await people.findByEmail(claims.email)
    if (known) {
      // Linked once: a person already linked to another subject of this provider is not taken over.
      if (await sso.findIdentityOfPerson(provider.name, known.id)) throw SingleSignOnError.notAllowed()
      await journal.write({ id: (await people.listWorkspaces(known.id))[0]?.account_id ?? (await auditAccount([])), keyId: null, personId: known.id, via: 'dashboard', address }, async (trx) => {
        await sso.in(trx).insertIdentity({ provider: provider.name, subject: claims.subject, personId: known.id, email: claims.email!, refreshToken, groups: claims.groups, checkedAt: at })
        return { result: undefined, changes: [{ action: 'person.sso_linked', resource: 'person', resourceId: known.id, fields: ['provider'] }] }
      })
      return known.id
    }
    const domain = claims.email.split('@')[1] ?? ''
    const invited = (await sso.listInvitationsFor(claims.email, at)).length > 0
    const mapped = (await sso.listMappedWorkspaces(provider.name)).some((row) => claims.groups.includes(row.group_name))
    if (!invited && !provider.allowedDomains.includes(domain)) throw SingleSignOnError.notAllowed()
    // Someone let in by their domain needs a workspace to land in: an invitation or a mapped group.
    if (!invited && !mapped) throw SingleSignOnError.noWorkspace()
    const username = await freeUsername(claims)
    const recordIn = await auditAccount((await sso.listInvitationsFor(claims.email, at)).map((invitation) => invitation.account_id))
    const personId = await journal.write({ id: recordIn, keyId: null, personId: null, via: 'dashboard', address }, async (trx) => {
      const id = await people.in(trx).insert({ username, email: claims.email!, passwordHash: null })
      await sso.in(trx).insertIdentity({ provider: provider.name, subject: claims.subject, personId: id, email: claims.email!, refreshToken, groups: claims.groups, checkedAt: at })
      return { result: id, changes: [{ action: 'person.created', resource: 'person', resourceId: id, fields: ['username', 'email', 'provider'] }] }
    })
    await acceptInvitations(personId, claims.email, address)
    return personId
  }

  return {
    /** The providers the sign-in page offers, each with whether it answers now. */
    async listProviders(): Promise<OfferedProvider[]> {
      const all = await providers.list()
      return Promise.all(all.map(async (provider) => ({ name: provider.name, label: provider.label, available: await oidc.isAvailable(provider) })))
    },

    /** Starts a sign-in at the provider: answers where to send the browser and the state its cookie keeps. */
    async start(providerName: string | undefined, now = new Date()): Promise<{ url: string; state: string }> {
      const provider = await providerOrThrow(providerName)
      const started = await oidc.start(provider)
      await sso.insertAttempt({ stateHash: hashApiKey(started.state), provider: provider.name, nonce: started.nonce, codeVerifier: started.codeVerifier, expiresAt: nowTimestamp(new Date(now.getTime() + SIGN_IN_MINUTES * MINUTE_MS)) })
      return { url: started.url.href, state: started.state }
    },

    /**
     * The provider's callback: the state must be the one this browser's cookie keeps and unused;
     * the code is exchanged and the ID token verified; the person is matched (or linked, or
     * created), their groups mapped, and a session opened.
     */
    async finish(callbackUrl: URL, cookieState: string | undefined, client: SignInClient, now = new Date()): Promise<SignedIn> {
      const state = callbackUrl.searchParams.get('state')
      if (!state || !cookieState || state !== cookieState || state.length > 200) throw SingleSignOnError.state()
      const attempt = await sso.takeAttempt(hashApiKey(state), nowTimestamp(now))
      if (!attempt) throw SingleSignOnError.state()
      const provider = await providerOrThrow(attempt.provider)
      const claims = await oidc.finish(provider, callbackUrl, { state, nonce: attempt.nonce, codeVerifier: attempt.code_verifier })
      const personId = await personOf(provider, claims, client.ip)
      await applyMapping(personId, provider.name, claims.groups)
      const workspace = sessions.workspaceToOpen(await people.listWorkspaces(personId))
      if (!workspace) throw SingleSignOnError.noWorkspace()
      const person = await people.findById(personId)
      // The provider stands in for the password; a second factor of the person's own is still asked for (ADR 033).
      return sessions.openSession(personId, workspace.account_id, client, now, (person?.totp_secret ?? null) !== null, 'sso')
    },

    /** Records a refused sign-in in the instance administration's audit log (nobody is signed in to record it for). */
    async recordRefusal(reason: SingleSignOnReason, address: string): Promise<void> {
      const accountId = await sso.findAdministrationAccountId()
      if (accountId === undefined) return
      await journal.write({ id: accountId, keyId: null, personId: null, via: 'dashboard', address }, async () => ({
        result: undefined,
        changes: [{ action: 'sso.sign_in_refused', resource: 'sso', resourceId: null, fields: [reason] }],
      }))
    },

    /**
     * Reads the groups of people whose last check is older than `before` again (their refresh
     * token) and maps them anew; ends the sessions of those the provider no longer knows, and the
     * single sign-on sessions of those it cannot be asked about (no refresh token). Answers how
     * many were checked.
     */
    async recheckDue(before: string, now = new Date(), limit = 50): Promise<number> {
      const due = await sso.claimDueForRecheck(before, nowTimestamp(now), limit)
      for (const identity of due) {
        const provider = await providers.find(identity.provider)
        if (!provider || identity.refresh_token === null) {
          await sessions.endSessionsOf(identity.person_id, 'sso')
          continue
        }
        try {
          const claims = await oidc.refresh(provider, secrets.open(identity.refresh_token), identity.subject)
          await sso.updateIdentity(identity.id, { groups: claims.groups, checkedAt: nowTimestamp(now), refreshToken: claims.refreshToken === undefined ? undefined : secrets.seal(claims.refreshToken) })
          await applyMapping(identity.person_id, provider.name, claims.groups)
        } catch (error) {
          // A provider that does not answer is asked again at the next round.
          if (error instanceof SingleSignOnError && error.reason === 'unavailable') continue
          if (!(error instanceof SingleSignOnError) || error.reason !== 'gone') throw error
          // The provider refused: the person left, or their grant was revoked there.
          await sso.updateIdentity(identity.id, { groups: [], checkedAt: nowTimestamp(now), refreshToken: null })
          await applyMapping(identity.person_id, provider.name, [])
          await sessions.endSessionsOf(identity.person_id)
        }
      }
      return due.length
    },
  }
}

export type SingleSignOnService = ReturnType<typeof createSingleSignOnService>
