// The one reader of a short link's fields (decisions §6: Short links), for a create and an update
// alike: each field is checked by the same rule whichever sends it, and an update differs only in
// which fields are present. What only an update can send is said by its schema (ADR 013): `""`
// clears a field, `campaign` 0 takes the link out of its campaign; read here like every other value.
import { hashPassword } from '../../core/secrets.js'
import { givenFields } from '../changes/change-journal.js'
import { parseDomainOrigin } from '../domains/domain-origin.js'
import type { TagService } from '../tags/tag.service.js'
import { parseExpiry, parseLinkType } from './link-input.js'
import { emptyOptions, givesOptions, mergeOptions, parseStoredOptions, serialiseOptions } from './link-options.js'
import { emptyTargeting, mergeTargeting, parseStoredTargeting, serialiseTargeting } from './link-targeting.js'
import type { LinkRepository, LinkValues } from './link.repository.js'
import type { LinkCreateInput, LinkUpdateInput } from './link.schemas.js'
import { checkHttpUrl } from '../../core/urls.js'
import { NotFoundError } from '../../core/errors.js'
import { MAX_ID } from '../../core/schemas.js'
import type { LinkRow } from '../../db/schema.js'

/** Where a link is served: the main domain (host '') or a branded domain of the account. */
export interface Placement {
  domainId: number | null
  host: string
  origin: string | null
}

export const MAIN_DOMAIN: Placement = { domainId: null, host: '', origin: null }

/** What a link stores besides where it is served: the values its fields set. */
type FieldValues = Omit<LinkValues, 'alias' | 'host' | 'domainId'>

/** A new link's values where its body leaves a field out. */
export const NEW_LINK_DEFAULTS: Omit<FieldValues, 'url'> = {
  title: null,
  description: null,
  passwordHash: null,
  expiresAt: null,
  type: 'direct',
  splashId: null,
  overlayId: null,
  campaignId: null,
  targeting: serialiseTargeting(emptyTargeting()),
  options: serialiseOptions(emptyOptions()),
}

/** A link's fields as a body gives them, checked; what it leaves out is absent (undefined). */
export interface LinkFields {
  /** The stored values the body sets: a key is present only when its field was given. */
  values: Partial<FieldValues>
  /** Where the link is to be served, when `domain` was given. */
  placement: Placement | undefined
  /** Its pixels (distinct), when given: they replace the link's. */
  pixelIds: number[] | undefined
  /** A channel to put it in, when given. */
  channelId: number | undefined
  /** Its tags' names, checked, when given: they replace the link's. */
  tagNames: string[] | undefined
  /** The body's fields that were given (the audit row's). */
  fields: string[]
}

/** What the reader looks up: the records a link names must be the account's. */
export interface LinkFieldLookups {
  links: Pick<LinkRepository, 'findDomain' | 'ownedIdsAmong'>
  tags: Pick<TagService, 'checkTags'>
}

/** Empty text means "none". */
function textOrNull(value: string): string | null {
  return value.trim() || null
}

/**
 * Reads and checks a link's fields from a create's body (no stored link: targeting and options
 * start empty) or an update's (merged over the stored link's). Records it names that the account
 * does not have are not found (404), whatever their id.
 */
export async function readLinkFields(lookups: LinkFieldLookups, accountId: number, input: LinkCreateInput): Promise<LinkFields & { values: { url: string } }>
export async function readLinkFields(lookups: LinkFieldLookups, accountId: number, input: LinkUpdateInput, stored: Pick<LinkRow, 'targeting' | 'options'>): Promise<LinkFields>
export async function readLinkFields(lookups: LinkFieldLookups, accountId: number, input: LinkUpdateInput, stored?: Pick<LinkRow, 'targeting' | 'options'>): Promise<LinkFields> {
  const { links, tags } = lookups

  async function assertOwned(table: 'pixels' | 'campaigns' | 'channels' | 'splash_pages' | 'overlays', resource: string, ids: number[]): Promise<void> {
    const owned = new Set(await links.ownedIdsAmong(table, accountId, ids))
    if (ids.some((id) => !owned.has(id))) throw NotFoundError.of(resource)
  }

  /** A branded domain given as its address or its id; "" is the main domain. */
  async function resolveDomain(given: string | number): Promise<Placement> {
    if (given === '') return MAIN_DOMAIN
    let domain
    if (typeof given === 'number' || /^\d+$/.test(given.trim())) {
      const id = Number(given)
      domain = id >= 1 && id <= MAX_ID ? await links.findDomain(accountId, { id }) : undefined
    } else if (!/^[a-z][a-z0-9+.-]*:/i.test(given.trim())) {
      // A bare hostname (`go.brand.com`, as bulk tools send it) names the workspace's branded
      // domain of that name; any other text keeps the address rule's refusal.
      domain = await links.findDomain(accountId, { hostname: given.trim().toLowerCase().replace(/\.$/, '') })
      if (!domain) parseDomainOrigin(given)
    } else {
      domain = await links.findDomain(accountId, { hostname: parseDomainOrigin(given).hostname })
    }
    if (!domain) throw NotFoundError.of('Domain')
    return { domainId: domain.id, host: domain.hostname, origin: domain.domain }
  }

  /** The redirect type as stored, after checking that a named splash page or overlay is the account's. */
  async function resolveType(given: string | number): Promise<Pick<LinkValues, 'type' | 'splashId' | 'overlayId'>> {
    const presentation = parseLinkType(given)
    if (presentation.type === 'overlay') {
      await assertOwned('overlays', 'CTA overlay', [presentation.overlayId])
      return { type: 'overlay', splashId: null, overlayId: presentation.overlayId }
    }
    if (presentation.type === 'splash') {
      if (presentation.splashId !== null) await assertOwned('splash_pages', 'Splash page', [presentation.splashId])
      return { type: 'splash', splashId: presentation.splashId, overlayId: null }
    }
    return { type: presentation.type, splashId: null, overlayId: null }
  }

  const values: Partial<FieldValues> = {}
  if (input.url !== undefined) values.url = checkHttpUrl('url', input.url)
  if (input.geotarget !== undefined || input.devicetarget !== undefined || input.languagetarget !== undefined) {
    values.targeting = serialiseTargeting(mergeTargeting(stored ? parseStoredTargeting(stored.targeting) : emptyTargeting(), input))
  }
  if (givesOptions(input)) values.options = serialiseOptions(mergeOptions(stored ? parseStoredOptions(stored.options) : emptyOptions(), input))
  if (input.expiry !== undefined) values.expiresAt = input.expiry === '' ? null : parseExpiry(input.expiry)
  if (input.metatitle !== undefined) values.title = textOrNull(input.metatitle)
  if (input.metadescription !== undefined) values.description = textOrNull(input.metadescription)
  const placement = input.domain === undefined ? undefined : await resolveDomain(input.domain)
  if (input.type !== undefined) Object.assign(values, await resolveType(input.type))
  let pixelIds: number[] | undefined
  if (input.pixels !== undefined) {
    pixelIds = [...new Set(input.pixels)]
    await assertOwned('pixels', 'Pixel', pixelIds)
  }
  const tagNames = tags.checkTags(input.tags)
  if (input.campaign !== undefined) {
    // 0 takes the link out of its campaign (ADR 013: an id cannot be ""); only an update's schema lets it through.
    if (input.campaign !== 0) await assertOwned('campaigns', 'Campaign', [input.campaign])
    values.campaignId = input.campaign || null
  }
  if (input.channel !== undefined) await assertOwned('channels', 'Channel', [input.channel])
  // Hashed last: a body refused for another field costs no hash.
  if (input.password !== undefined) values.passwordHash = input.password === '' ? null : await hashPassword(input.password)
  return { values, placement, pixelIds, channelId: input.channel, tagNames, fields: givenFields(input) }
}
