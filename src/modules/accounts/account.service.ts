// Accounts (workspaces) and the people who own them: creation (always with a first key, modules/api-keys),
// e-mail, password and time zone, suspension, plan, deletion, and the first start's administrator.
import { canonicalTimeZone } from '../../core/time-zones.js'
import { commandLineActor, givenFields, systemActor, type Actor, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { AccountRepository, AccountWithPlan, ConversionSettings } from './account.repository.js'
import type { ApiKeyRepository } from '../api-keys/api-key.repository.js'
import { issueKey } from '../api-keys/api-key.service.js'
import { hashPassword } from '../../core/secrets.js'
import { parseHttpUrl } from '../../core/urls.js'
import { randomBytes } from 'node:crypto'
import { createSecretBox, type SecretBox } from '../../core/secret-box.js'
import { ConflictError, DuplicateError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js'
import { ACCOUNT_TOPIC, ANNOUNCE_NOTHING, type Announcer } from '../../core/invalidation.js'
import { CREDENTIALS_REFUSED_MESSAGE, isLimited } from '../access/api-key-scopes.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import type { PageRequest } from '../../core/paging.js'
import type { PlanService } from '../plans/plan.service.js'

export interface CreateAccountInput {
  email: string
  username: string
  password?: string
  /** A password already hashed (a sign-up keeps only the hash until its address is confirmed). */
  passwordHash?: string
  /** Plan id, name or code; the default plan when absent. */
  plan?: string | number
  planExpires?: string | null
  isAdmin?: boolean
}

export interface CreatedAccount {
  id: number
  username: string
  email: string
  apiKey: string
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/
const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,32}$/
export const MIN_PASSWORD_LENGTH = 8

/** A sign-in address as stored: trimmed, lower case; ValidationError on `field` when it is none. */
export function normaliseEmail(email: string, field = 'email'): string {
  const trimmed = email.trim().toLowerCase()
  if (trimmed.length > 254 || !EMAIL_PATTERN.test(trimmed)) throw ValidationError.field(field, 'must be a valid e-mail address')
  return trimmed
}

/** The password rule, wherever a password is chosen (8 to 256 characters). */
export function checkNewPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw ValidationError.field(field, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  if (password.length > 256) throw ValidationError.field(field, 'must be at most 256 characters')
}

/** A username (and a workspace's name): 3 to 32 letters, digits, _ and -. */
export function isUsername(text: string): boolean {
  return USERNAME_PATTERN.test(text)
}

/** PUT /api/account/update's fields. */
export interface AccountUpdateInput {
  email?: string
  password?: string
  timezone?: string
  trackconversions?: boolean
  clickidparameter?: string
  querypassthrough?: boolean
  attributiondays?: number
  trackingorigins?: string[]
  customeremails?: boolean
  /** The Stripe webhook endpoint's signing secret (`whsec_…`); "" removes it. */
  stripesigningsecret?: string
}

/** An origin (`https://shop.example`, a port if any) as browsers send it; a 400 naming `field` for anything else. */
function trackingOriginOf(text: string, field: string): string {
  const url = parseHttpUrl(text.trim())
  if (url === null || url.pathname !== '/' || url.search || url.hash || url.username || url.password || text.trim().replace(/\/$/, '') !== url.origin) {
    throw ValidationError.field(field, 'must be an origin such as https://shop.example (scheme, host and port only)')
  }
  return url.origin
}

/** The conversion settings an update sets (the schema checked each), or undefined when it sets none. */
function conversionChangesOf(input: AccountUpdateInput): Partial<ConversionSettings> | undefined {
  const changes: Partial<ConversionSettings> = {}
  if (input.trackconversions !== undefined) changes.trackConversions = input.trackconversions
  if (input.clickidparameter !== undefined) changes.clickIdParameter = input.clickidparameter
  if (input.querypassthrough !== undefined) changes.queryPassthrough = input.querypassthrough
  if (input.attributiondays !== undefined) changes.attributionDays = input.attributiondays
  if (input.trackingorigins !== undefined) changes.trackingOrigins = input.trackingorigins.map((origin, index) => trackingOriginOf(origin, `trackingorigins.${index}`))
  if (input.customeremails !== undefined) changes.customerEmails = input.customeremails
  return Object.keys(changes).length > 0 ? changes : undefined
}

export interface AccountServiceOptions {
  accounts: Bindable<AccountRepository>
  /** Where a new account's first key is stored (modules/api-keys). */
  keys: Bindable<ApiKeyRepository>
  /** Which plan an account is put on (modules/plans). */
  plans: Pick<PlanService, 'resolvePlan' | 'getPlanOrThrow'>
  journal: ChangeJournal
  /** Seals the Stripe signing secret at rest (SECRETS_KEY); stored as given without a key. */
  secrets?: SecretBox
  /** Hears of deleted workspaces, so that every instance's key cache drops their keys at once. */
  invalidation?: Announcer
}

export function createAccountService({ accounts, keys, plans, journal, invalidation = ANNOUNCE_NOTHING, secrets = createSecretBox(null) }: AccountServiceOptions) {
  const validateEmail = normaliseEmail
  const validatePassword = checkNewPassword

  /**
   * An address someone else signs in with (a person's; a new account's also must not be another
   * account's): one message either way. Workspaces of one person may share their owner's address.
   */
  async function refuseTakenEmail(email: string, ownPersonId?: number): Promise<void> {
    const person = await accounts.people.findByEmail(email)
    if ((person && person.id !== ownPersonId) || (ownPersonId === undefined && (await accounts.findByEmail(email)))) {
      throw new DuplicateError('An account with this e-mail address already exists.', 'email')
    }
  }

  /**
   * Who acts: the actor's person, else (the command line, the system) the account's first owner,
   * in whose name keys are made and passwords set.
   */
  async function actingPersonOf(actor: Actor, accountId = actor.id): Promise<number> {
    if (actor.personId !== null && accountId === actor.id) return actor.personId
    const owner = await accounts.people.findFirstOwnerId(accountId)
    if (owner === undefined) throw NotFoundError.of('Account owner')
    return owner
  }

  async function setPersonPassword(actor: Actor, personId: number, password: string, keepSessionId?: string): Promise<number> {
    validatePassword(password)
    const passwordHash = await hashPassword(password)
    return journal.write(actor, async (trx) => {
      const ended = await accounts.in(trx).people.updatePassword(personId, passwordHash, keepSessionId)
      return { result: ended, changes: [{ action: 'account.password_changed', resource: 'account', resourceId: actor.id, fields: ['password'] }] }
    })
  }

  return {
    /**
     * Creates an account and its first API key; the key is returned once and never stored. `actor`:
     * who creates it (an administrator, the command line), whose audit log records it; without one
     * (the first start) the new account's own log does, as the system's.
     */
    async createAccount(input: CreateAccountInput, apiKey?: string, actor?: Actor): Promise<CreatedAccount> {
      const email = validateEmail(input.email)
      const username = input.username.trim()
      if (!USERNAME_PATTERN.test(username)) {
        throw ValidationError.field('username', 'must be 3 to 32 characters of letters, digits, _ and -')
      }
      if (input.password !== undefined) validatePassword(input.password)
      const planId = (await plans.resolvePlan(input.plan)).id
      await refuseTakenEmail(email)
      if ((await accounts.findByUsername(username)) || (await accounts.people.findByUsername(username))) {
        throw new DuplicateError('An account with this username already exists.', 'username')
      }
      const passwordHash = input.password === undefined ? input.passwordHash ?? null : await hashPassword(input.password)
      try {
        // The account (a workspace), the person who signs in to it as its owner, its first key (the
        // owner's) and the audit row land together; the first start's account records its own
        // creation, by the system.
        return await journal.write(actor ?? systemActor(0), async (trx) => {
          const saved = accounts.in(trx)
          const id = await saved.insert({ email, username, planId, planExpires: input.planExpires ?? null, isAdmin: input.isAdmin ?? false })
          const personId = await saved.people.insert({ username, email, passwordHash })
          await saved.people.addMembership(id, personId, 'owner')
          const { key } = await issueKey(keys.in(trx), { accountId: id, personId, name: 'default', expiresAt: null, key: apiKey })
          const fields = givenFields({ ...input, password: input.password === undefined && input.passwordHash === undefined ? undefined : '', passwordHash: undefined })
          const change = actor
            ? { action: 'user.created', resource: 'user', resourceId: id, fields }
            // A sign-up (issue 38) records itself in its own log as the first start does.
            : { action: input.passwordHash === undefined ? 'account.created' : 'account.signed_up', resource: 'account', resourceId: id, fields, accountId: id }
          return { result: { id, username, email, apiKey: key }, changes: [change] }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateError('An account with this e-mail address or username already exists.')
        throw error
      }
    },

    /**
     * A person who signs in with their own username or e-mail address and password, in no
     * workspace yet (an invitation accepted adds them to one: modules/members). Answers their id.
     */
    async createPerson(actor: Actor, input: { username: string; email: string; password: string }): Promise<number> {
      const email = validateEmail(input.email)
      const username = input.username.trim()
      if (!USERNAME_PATTERN.test(username)) throw ValidationError.field('username', 'must be 3 to 32 characters of letters, digits, _ and -')
      validatePassword(input.password)
      await refuseTakenEmail(email)
      if ((await accounts.findByUsername(username)) || (await accounts.people.findByUsername(username))) {
        throw new DuplicateError('An account with this username already exists.', 'username')
      }
      const passwordHash = await hashPassword(input.password)
      try {
        return await journal.write(actor, async (trx) => {
          const id = await accounts.in(trx).people.insert({ username, email, passwordHash })
          return { result: id, changes: [{ action: 'person.created', resource: 'person', resourceId: id, fields: ['username', 'email', 'password'] }] }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateError('An account with this e-mail address or username already exists.')
        throw error
      }
    },

    /**
     * A new workspace (an account on the default plan, no key yet) whose owner is `personId`; its
     * contact address is theirs. Its name is its username: unique, 3 to 32 letters, digits, _ and -.
     */
    async createWorkspace(actor: Actor, personId: number, name: string): Promise<{ id: number; name: string }> {
      const username = name.trim()
      if (!USERNAME_PATTERN.test(username)) throw ValidationError.field('name', 'must be 3 to 32 characters of letters, digits, _ and -')
      const person = await accounts.people.findById(personId)
      if (!person) throw NotFoundError.of('Person')
      if (await accounts.findByUsername(username)) throw new DuplicateError('A workspace with this name already exists.', 'name')
      const planId = (await plans.resolvePlan()).id
      try {
        return await journal.write(actor, async (trx) => {
          const saved = accounts.in(trx)
          const id = await saved.insert({ email: person.email, username, planId, planExpires: null, isAdmin: false })
          await saved.people.addMembership(id, personId, 'owner')
          // Recorded in the new workspace's own log.
          return { result: { id, name: username }, changes: [{ action: 'workspace.created', resource: 'account', resourceId: id, fields: ['name'], accountId: id }] }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateError('A workspace with this name already exists.', 'name')
        throw error
      }
    },

    async getAccountOrThrow(accountId: number): Promise<AccountWithPlan> {
      const account = await accounts.findById(accountId)
      if (!account) throw NotFoundError.of('Account')
      return account
    },

    /**
     * The person acting for `actor` in its own account: the actor's person, else (the command line)
     * the account's first owner; NotFoundError when the account is gone. A new key acts as them
     * (modules/api-keys: the composition root hands this in as the key service's `makerOf`).
     */
    async personActingFor(actor: Actor): Promise<number> {
      await this.getAccountOrThrow(actor.id)
      return actingPersonOf(actor)
    },

    /**
     * spec: PUT /api/account/update with `email` and/or `password` (decisions §6): the account's
     * e-mail, which is also the sign-in address of the person acting (an owner: http/api-roles.ts),
     * and that person's password, so that an account of one person behaves as it always did. With a
     * key the password is set outright (the spec's contract); a dashboard session must confirm the
     * current one through PUT /api/account/password, so a borrowed browser cannot take it over, and
     * a new e-mail address through POST /api/account/email, confirmed by mail (issue 38, ADR 036).
     * A key with limits sets neither password nor e-mail (ADR 027): the sign-in they give opens
     * the dashboard, which makes keys without limits; only the time zone is its to change.
     */
    async updateAccount(account: AuthenticatedAccount, input: AccountUpdateInput): Promise<void> {
      const conversions = conversionChangesOf(input)
      const stripeSecret = input.stripesigningsecret === undefined ? undefined : input.stripesigningsecret.trim()
      if (stripeSecret !== undefined && stripeSecret !== '' && !/^whsec_[A-Za-z0-9+/=_-]{8,200}$/.test(stripeSecret)) {
        throw ValidationError.field('stripesigningsecret', 'must be the signing secret Stripe shows for the endpoint (whsec_…), or empty to remove it')
      }
      if (input.email === undefined && input.password === undefined && input.timezone === undefined && conversions === undefined && stripeSecret === undefined) {
        throw new ValidationError('Provide an "email", a "password" or both.')
      }
      if ((input.password !== undefined || input.email !== undefined) && isLimited(account.keyScope)) {
        throw new ForbiddenError(CREDENTIALS_REFUSED_MESSAGE)
      }
      if (input.password !== undefined && account.sessionId !== undefined) {
        throw new ForbiddenError('Change the password with PUT /api/account/password, which asks for the current one.')
      }
      // A session's new address is confirmed by a mailed link first (issue 38, ADR 036); a key keeps the spec's direct change.
      if (input.email !== undefined && account.sessionId !== undefined) {
        throw new ForbiddenError('Change the e-mail address with POST /api/account/email, which asks for the current password and confirms the new address by mail.')
      }
      const personId = await actingPersonOf(account)
      let email: string | undefined
      if (input.email !== undefined) {
        email = validateEmail(input.email)
        await refuseTakenEmail(email, personId)
      }
      if (input.password !== undefined) validatePassword(input.password)
      // The workspace's statistics are counted in this zone by default (issue 24, migration 027).
      const timeZone = input.timezone === undefined ? undefined : canonicalTimeZone(input.timezone)
      if (input.timezone !== undefined && timeZone === undefined) throw ValidationError.field('timezone', 'must be an IANA time zone name such as Europe/Berlin or UTC')
      const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password)
      try {
        await journal.write(account, async (trx) => {
          const saved = accounts.in(trx)
          if (email !== undefined) {
            await saved.update(account.id, { email })
            await saved.people.updateEmail(personId, email)
          }
          if (passwordHash !== undefined) await saved.people.updatePassword(personId, passwordHash)
          if (timeZone !== undefined) await saved.update(account.id, { timeZone })
          if (conversions !== undefined) await saved.update(account.id, conversions)
          if (stripeSecret !== undefined) {
            const token = (await saved.findStripeSettings(account.id))?.token ?? randomBytes(24).toString('base64url')
            await saved.setStripeSecret(account.id, stripeSecret === '' ? null : secrets.seal(stripeSecret), token)
          }
          return { result: undefined, changes: [{ action: 'account.updated', resource: 'account', resourceId: account.id, fields: givenFields(input) }] }
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateError('An account with this e-mail address already exists.', 'email')
        throw error
      }
      // Cached links carry the parameter's name and the passthrough default (visits/alias-resolver.ts).
      if (conversions?.clickIdParameter !== undefined || conversions?.queryPassthrough !== undefined) invalidation.publish(ACCOUNT_TOPIC, String(account.id))
    },

    /**
     * The workspace's Stripe webhook address's token (null until made: by the first `stripesigningsecret`
     * sent, `""` included, since Stripe shows the secret only once it has the address) and whether a secret is set.
     */
    async stripeSettingsOf(accountId: number): Promise<{ token: string | null; secretSet: boolean }> {
      const found = await accounts.findStripeSettings(accountId)
      return { token: found?.token ?? null, secretSet: Boolean(found?.secret) }
    },

    /** The workspace of a Stripe webhook address and its signing secret, opened; undefined for an unknown token. */
    async stripeReceiverOf(token: string): Promise<{ accountId: number; secret: string } | undefined> {
      const found = await accounts.findByStripeToken(token)
      return found && { accountId: found.id, secret: secrets.open(found.secret) }
    },

    /** The origins whose pages may call the tracking API from a browser. */
    trackingOriginsOf: async (accountId: number): Promise<readonly string[]> => (await accounts.findConversionSettings(accountId))?.trackingOrigins ?? [],

    /** Whether the workspace's links created without `trackconversions` track them (link creation asks). */
    async tracksConversionsByDefault(accountId: number): Promise<boolean> {
      return (await accounts.findConversionSettings(accountId))?.trackConversions ?? false
    },

    /**
     * Sets the password of the account's first owner (`linkwell account password`): validated, hashed
     * off the event loop; every session of theirs ends. Returns how many sessions ended. `actor`:
     * who sets it (its audit log records it).
     */
    async setPassword(actor: Actor, accountId: number, password: string): Promise<number> {
      await this.getAccountOrThrow(accountId)
      return setPersonPassword(actor, await actingPersonOf(commandLineActor(accountId)), password)
    },

    /** Sets a person's own password (the one acting), ending their sessions but `keepSessionId`. */
    setPersonPassword,

    findAccount(accountId: number): Promise<AccountWithPlan | undefined> {
      return accounts.findById(accountId)
    },

    findAccountByUsername(username: string) {
      return accounts.findByUsername(username)
    },

    /** `reference` is an id (digits) or a username; an id wins when both could match. */
    async findAccountByReference(reference: string): Promise<AccountWithPlan | undefined> {
      if (/^\d{1,10}$/.test(reference)) {
        const byId = await accounts.findById(Number(reference))
        if (byId) return byId
      }
      const byUsername = await accounts.findByUsername(reference)
      return byUsername ? accounts.findById(byUsername.id) : undefined
    },

    listAccounts(page: PageRequest) {
      return accounts.listPage(page)
    },

    listAllAccounts(): Promise<AccountWithPlan[]> {
      return accounts.listAll()
    },

    /** A suspended account's keys are refused with 403 (http/auth.ts). */
    async setSuspended(actor: Actor, accountId: number, suspended: boolean): Promise<void> {
      await journal.write(actor, async (trx) => {
        if (!(await accounts.in(trx).setSuspended(accountId, suspended))) throw NotFoundError.of('Account')
        return { result: undefined, changes: [{ action: suspended ? 'user.suspended' : 'user.unsuspended', resource: 'user', resourceId: accountId, fields: [] }] }
      })
    },

    /**
     * Removes the account; the foreign keys cascade to its keys, memberships and every record it
     * owns. Its people who belong to no other workspace go with it (nobody to sign in as).
     */
    async deleteAccount(actor: Actor, accountId: number): Promise<void> {
      await journal.write(actor, async (trx) => {
        const saved = accounts.in(trx)
        const members = await saved.people.listMembers(accountId)
        if (!(await saved.delete(accountId))) throw NotFoundError.of('Account')
        await saved.people.deleteUnattached(members.map((member) => member.person_id))
        return { result: undefined, changes: [{ action: 'user.deleted', resource: 'user', resourceId: accountId, fields: [] }] }
      })
    },

    /**
     * An owner deletes the workspace they are in, with every record in it (the foreign keys
     * cascade), its keys stopped on every instance at once. Refused for the instance's
     * administration and when the person has no other workspace to go to. Open sessions move to
     * another workspace of their person; members left with none go with it, as deleteAccount's.
     * The entry goes to the log of the workspace the actor moves to (the deleted one's log goes too).
     * Answers that workspace.
     */
    async deleteWorkspace(actor: Actor, accountId: number): Promise<{ id: number; name: string }> {
      if (actor.personId === null) throw new ForbiddenError('A workspace is deleted by one of its owners, signed in or with a key they made.')
      const personId = actor.personId
      // Read in the deletion's transaction: a membership changed meanwhile cannot pick where the session goes.
      const next = await journal.write({ ...actor, keyId: null }, async (trx) => {
        const saved = accounts.in(trx)
        const workspaces = await saved.people.listWorkspaces(personId)
        if (!workspaces.some((entry) => entry.account_id === accountId)) throw NotFoundError.of('Workspace')
        if (accountId !== actor.id) throw ValidationError.field('id', 'must be the workspace you are in (switch to it first)')
        if ((await saved.findById(accountId))?.is_admin === 1) throw ConflictError.workspaceKept('This workspace holds the instance\'s administration and cannot be deleted.')
        const other = workspaces.find((entry) => entry.account_id !== accountId && entry.is_suspended === 0)
        if (!other) throw ConflictError.workspaceKept('This is your only workspace. Create another one first, or ask the instance\'s administrator to delete your account.')
        const members = await saved.people.listMembers(accountId)
        await saved.people.moveSessionsOff(accountId)
        if (!(await saved.delete(accountId))) throw NotFoundError.of('Workspace')
        await saved.people.deleteUnattached(members.map((member) => member.person_id))
        return { result: other, changes: [{ action: 'workspace.deleted', resource: 'account', resourceId: accountId, fields: ['name'], accountId: other.account_id }] }
      })
      invalidation.publish(ACCOUNT_TOPIC, String(accountId))
      return { id: next.account_id, name: next.username }
    },

    async assignPlan(actor: Actor, accountId: number, planId: number): Promise<void> {
      await plans.getPlanOrThrow(planId)
      await this.getAccountOrThrow(accountId)
      await journal.write(actor, async (trx) => {
        await accounts.in(trx).update(accountId, { planId })
        return { result: undefined, changes: [{ action: 'user.plan_changed', resource: 'user', resourceId: accountId, fields: ['plan'] }] }
      })
    },

    /**
     * First start: with no account at all, creates the admin `admin` with `password`, whose key is
     * `bootstrapKey` when given. Returns the key to show once, or undefined when accounts already exist.
     */
    async ensureBootstrapAccount(password: string, bootstrapKey?: string): Promise<CreatedAccount | undefined> {
      if ((await accounts.countAll()) > 0) return undefined
      try {
        return await this.createAccount({ email: 'admin@localhost', username: 'admin', isAdmin: true, password }, bootstrapKey)
      } catch (error) {
        // Another instance bootstrapped at the same moment.
        if (error instanceof DuplicateError) return undefined
        throw error
      }
    },
  }
}

export type AccountService = ReturnType<typeof createAccountService>
