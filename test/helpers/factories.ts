// Test data, made the way the app makes it: through the real services of a test app (or of a bare
// test database, `servicesFor`), with defaults that pass every rule and overrides per test.
// `insert…Row` writes a row directly, for states no service accepts (an expired link, a stored
// hash of another scheme, a record pointing at another account's): use it only for those.
import { randomBytes } from 'node:crypto'
import type { Insertable } from 'kysely'
import { loadConfig } from '../../src/config.js'
import { nowTimestamp } from '../../src/core/time.js'
import type { DatabaseHandle, DB } from '../../src/db/database.js'
import type { BioPagesTable, LinksTable } from '../../src/db/schema.js'
import { createLogger } from '../../src/logger.js'
import type { AuthenticatedAccount } from '../../src/modules/access/authenticated-account.js'
import type { CreateAccountInput } from '../../src/modules/accounts/account.service.js'
import type { BioPageCreateInput } from '../../src/modules/bio-pages/bio-page.schemas.js'
import type { ChannelInput } from '../../src/modules/channels/channel.schemas.js'
import type { DomainCreateInput } from '../../src/modules/domains/domain.schemas.js'
import type { LinkCreateInput } from '../../src/modules/links/link.schemas.js'
import type { OverlayCreateInput } from '../../src/modules/overlays/overlay.schemas.js'
import type { PixelCreateInput } from '../../src/modules/pixels/pixel.schemas.js'
import type { QrCreateInput } from '../../src/modules/qr-codes/qr-code.schemas.js'
import type { SplashPageCreateInput } from '../../src/modules/splash-pages/splash-page.schemas.js'
import { createServices, type Services } from '../../src/services.js'
import { commandLineActor } from '../../src/modules/changes/change-journal.js'
import type { Role } from '../../src/modules/access/roles.js'

/** Anything that carries the app's services: a TestContext, or `servicesFor(database)`. */
export interface WithServices {
  services: Services
}

/** An account as the factories answer it: what `linkwell account create` prints. */
export interface TestAccount {
  id: number
  username: string
  email: string
  apiKey: string
}

let nameCounter = 0

/** A name no other test of the run uses (test files share a PostgreSQL server). */
export function uniqueName(prefix: string): string {
  nameCounter += 1
  return `${prefix}-${nameCounter}${randomBytes(3).toString('hex')}`
}

/** An alias no other test of the run uses (letters and digits only). */
export function uniqueAlias(prefix = 'lnk'): string {
  nameCounter += 1
  return `${prefix}${nameCounter}x${randomBytes(3).toString('hex')}`
}

/** The services of the app over a database that has no app (CLI and analytics tests). */
export function servicesFor(database: DatabaseHandle, env: Record<string, string> = {}): WithServices {
  const config = loadConfig({ PUBLIC_URL: 'https://lw.test', LOG_LEVEL: 'silent', ...env })
  return { services: createServices({ config, database, log: createLogger({ logLevel: 'silent' }) }) }
}

/** Creates an account with an API key through the account service (no HTTP). */
export async function createAccount(context: WithServices, overrides: Partial<CreateAccountInput> = {}): Promise<TestAccount> {
  const username = overrides.username ?? uniqueAlias('user')
  const created = await context.services.accounts.createAccount({ email: `${username}@example.com`, username, ...overrides })
  return { id: created.id, username: created.username, email: created.email, apiKey: created.apiKey }
}

/** The account as a request made with its key acts for (plan limits included). */
export function actingAs(context: WithServices, owner: TestAccount): Promise<AuthenticatedAccount> {
  return context.services.apiKeys.authenticate(owner.apiKey)
}

/** A person of `owner`'s workspace, with their own password and an API key they made. */
export interface TestMember {
  personId: number
  username: string
  email: string
  password: string
  apiKey: string
}

/**
 * Adds a new person to `owner`'s workspace in `role` (as the command line would) and makes them a
 * key of their own: the key acts in that person's role.
 */
export async function createMember(context: WithServices, owner: TestAccount, role: Role, password = 'member password 1'): Promise<TestMember> {
  const operator = commandLineActor(owner.id)
  const username = uniqueAlias('person')
  const email = `${username}@example.com`
  const personId = await context.services.accounts.createPerson(operator, { username, email, password })
  await context.services.members.addMember(operator, personId, role)
  const { key } = await context.services.apiKeys.createNamedKey({ ...operator, personId }, { name: `${role} key` })
  return { personId, username, email, password, apiKey: key }
}

/** A short link on the main domain to https://example.com/landing with a generated alias. */
export async function createLink(context: WithServices, owner: TestAccount, input: Partial<LinkCreateInput> = {}): Promise<{ id: number; alias: string }> {
  const created = await context.services.links.createLink(await actingAs(context, owner), { url: 'https://example.com/landing', ...input })
  return { id: created.id, alias: created.alias }
}

/** A bio page named "My links", with no blocks and a generated alias unless given. */
export async function createBioPage(context: WithServices, owner: TestAccount, input: Partial<BioPageCreateInput> = {}): Promise<{ id: number; alias: string }> {
  const row = await context.services.bioPages.createBioPage(await actingAs(context, owner), { name: 'My links', ...input })
  return { id: row.id, alias: row.alias }
}

/** A private campaign with a unique name and no slug. */
export async function createCampaign(context: WithServices, owner: TestAccount, input: { name?: string; slug?: string; public?: boolean } = {}): Promise<number> {
  const row = await context.services.campaigns.createCampaign(await actingAs(context, owner), { name: uniqueName('campaign'), ...input })
  return row.id
}

/** A channel with a unique name. */
export async function createChannel(context: WithServices, owner: TestAccount, input: ChannelInput = {}): Promise<number> {
  const row = await context.services.channels.createChannel(await actingAs(context, owner), { name: uniqueName('channel'), ...input })
  return row.id
}

/** A text QR code saying "hello". */
export async function createQrCode(context: WithServices, owner: TestAccount, input: Partial<Extract<QrCreateInput, { type: 'text' | 'link' }>> = {}): Promise<{ id: number; alias: string }> {
  const row = await context.services.qrCodes.createQrCode(await actingAs(context, owner), { type: 'text', data: 'hello', ...input } as QrCreateInput)
  return { id: row.id, alias: row.alias }
}

/** A branded domain `https://<unique>.example.com` (the test app checks no DNS). */
export async function createDomain(context: WithServices, owner: TestAccount, input: Partial<DomainCreateInput> = {}): Promise<{ id: number; origin: string; hostname: string }> {
  const row = await context.services.domains.createDomain(await actingAs(context, owner), { domain: `https://${uniqueName('go')}.example.com`, ...input })
  return { id: row.id, origin: row.domain, hostname: row.hostname }
}

/** A Google Tag Manager pixel with a unique container id. */
export async function createPixel(context: WithServices, owner: TestAccount, input: Partial<PixelCreateInput> = {}): Promise<number> {
  const tag = `GTM-${randomBytes(3).toString('hex').toUpperCase()}`
  const row = await context.services.pixels.createPixel(await actingAs(context, owner), { type: 'gtmpixel', name: uniqueName('pixel'), tag, ...input } as PixelCreateInput)
  return row.id
}

/** A splash page with a title and nothing else. */
export async function createSplashPage(context: WithServices, owner: TestAccount, input: Partial<SplashPageCreateInput> = {}): Promise<number> {
  const row = await context.services.splashPages.createSplashPage(await actingAs(context, owner), { name: uniqueName('splash'), title: 'Wait a moment', ...input } as SplashPageCreateInput)
  return row.id
}

/** A message overlay saying "Hello". */
export async function createOverlay(context: WithServices, owner: TestAccount, input: Partial<OverlayCreateInput> = {}): Promise<number> {
  const row = await context.services.overlays.createOverlay(await actingAs(context, owner), { type: 'message', name: uniqueName('overlay'), message: 'Hello', ...input } as OverlayCreateInput)
  return row.id
}

/** Sets a link's counters as if it had been visited (the click writer is tested on its own). */
export async function setLinkCounters(context: { database: { db: DB } }, linkId: number, clicks: number, uniqueClicks: number): Promise<void> {
  await context.database.db.updateTable('links').set({ clicks, unique_clicks: uniqueClicks }).where('id', '=', linkId).execute()
}

/**
 * A link row written directly, for states the link service refuses: an expiry in the past, a
 * stored password hash of another scheme, a splash page or overlay of another account, an alias a
 * bio page holds. Defaults: a direct link to https://example.com/landing on the main domain.
 */
export async function insertLinkRow(db: DB, accountId: number, overrides: Partial<Insertable<LinksTable>> = {}): Promise<{ id: number; alias: string }> {
  const now = nowTimestamp()
  const alias = overrides.alias ?? uniqueAlias()
  const row = await db
    .insertInto('links')
    .values({ account_id: accountId, host: '', url: 'https://example.com/landing', type: 'direct', targeting: '{}', clicks: 0, unique_clicks: 0, created_at: now, updated_at: now, ...overrides, alias })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, alias }
}

/** A bio page row written directly, for an alias the shared namespace would refuse. */
export async function insertBioPageRow(db: DB, accountId: number, overrides: Partial<Insertable<BioPagesTable>> = {}): Promise<{ id: number; alias: string }> {
  const now = nowTimestamp()
  const alias = overrides.alias ?? uniqueAlias('bio')
  const row = await db
    .insertInto('bio_pages')
    .values({ account_id: accountId, name: 'My links', description: '', avatar: null, blocks: '[]', created_at: now, updated_at: now, ...overrides, alias })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, alias }
}

/** A pixel row written directly, for a type or tag the pixel rules refuse. */
export async function insertPixelRow(db: DB, accountId: number, type: string, tag: string): Promise<number> {
  const row = await db.insertInto('pixels').values({ account_id: accountId, type, name: `${type} pixel`, tag, created_at: nowTimestamp() }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

/** Attaches pixels to a link directly, for pixels of another account or of an unknown type. */
export async function attachPixelRows(db: DB, linkId: number, pixelIds: number[]): Promise<void> {
  await db.insertInto('link_pixels').values(pixelIds.map((pixelId) => ({ link_id: linkId, pixel_id: pixelId }))).execute()
}

/** A splash page row written directly, for a stored config the splash rules would refuse. */
export async function insertSplashPageRow(db: DB, accountId: number, config: Record<string, unknown>): Promise<number> {
  const row = await db.insertInto('splash_pages').values({ account_id: accountId, name: 'Splash', config: JSON.stringify(config), created_at: nowTimestamp() }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

/** An overlay row written directly, for a stored config the overlay rules would refuse. */
export async function insertOverlayRow(db: DB, accountId: number, type: string, config: Record<string, unknown>): Promise<number> {
  const row = await db.insertInto('overlays').values({ account_id: accountId, type, name: 'Overlay', config: JSON.stringify(config), created_at: nowTimestamp() }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

/** A date-time a year from now in the stored form. */
export function nextYear(): string {
  return nowTimestamp(new Date(Date.now() + 365 * 24 * 3600 * 1000))
}
