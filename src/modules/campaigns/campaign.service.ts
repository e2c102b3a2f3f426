// Campaign rules: name and slug uniqueness, default names, plan limits, link membership.
import { isUniqueViolation } from '../../db/errors.js'
import type { CampaignRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import type { CampaignRepository } from './campaign.repository.js'
import { toCampaignRecord } from './campaign.mapper.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import type { DB } from '../../db/database.js'
import { CAMPAIGN_TOPIC, type Announcer } from '../../core/invalidation.js'
import { DuplicateError, NotFoundError, orNotFound } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { trimmedName } from '../../core/text.js'
import { CAMPAIGN_NAME_RULE, type CampaignCreateInput, type CampaignUpdateInput } from './campaign.schemas.js'

const DUPLICATE_NAME = 'You already have a campaign with that name.'
const SLUG_TAKEN = 'This slug is currently not available. Please choose another one.'

/** How a campaign reaches its links (kept in `links.campaign_id`, so a link is in one campaign at most). */
export interface LinkMembership {
  /** Puts the account's link in the campaign, moving it from any other (on `executor`); false when no such link. */
  assignToCampaign(executor: DB, accountId: number, campaignId: number, linkId: number): Promise<boolean>
}

export interface CampaignServiceOptions {
  campaigns: Bindable<CampaignRepository>
  /** Puts links in a campaign (the links' own table holds it). */
  links: LinkMembership
  invalidation: Announcer
  journal: ChangeJournal
  /** The base of the rotator and list addresses in the records the journal carries. */
  publicUrl: string
}

export function createCampaignService({ campaigns, links, invalidation, journal, publicUrl }: CampaignServiceOptions) {
  const recordOf = (campaign: CampaignRow, account: AuthenticatedAccount) => toCampaignRecord(campaign, publicUrl, account.username)
  const announce = (id: number) => invalidation.publish(CAMPAIGN_TOPIC, String(id))

  async function assertNameFree(accountId: number, name: string, exceptId?: number) {
    const existing = await campaigns.findByName(accountId, name)
    if (existing && existing.id !== exceptId) throw new DuplicateError(DUPLICATE_NAME, 'name')
  }

  async function assertSlugFree(slug: string, exceptId?: number) {
    const existing = await campaigns.findBySlug(slug)
    if (existing && existing.id !== exceptId) throw new DuplicateError(SLUG_TAKEN, 'slug')
  }

  /** Two requests racing past the checks meet the database's unique constraints. */
  async function translateUniqueViolation<T>(write: () => Promise<T>, slug: string | null | undefined): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      if (slug && (await campaigns.findBySlug(slug))) throw new DuplicateError(SLUG_TAKEN, 'slug')
      throw new DuplicateError(DUPLICATE_NAME, 'name')
    }
  }

  const getCampaignOrThrow = orNotFound(campaigns.findById, 'Campaign')

  return {
    getCampaignOrThrow,

    listCampaigns(accountId: number, page: PageRequest) {
      return campaigns.listPage(accountId, page)
    },

    async createCampaign(account: AuthenticatedAccount, input: CampaignCreateInput): Promise<CampaignRow> {
      await enforcePlanLimit(account, 'campaigns', () => campaigns.count(account.id))
      // Without a name, the slug names the campaign (decisions §6).
      const name = input.name === undefined ? input.slug : trimmedName(input.name, CAMPAIGN_NAME_RULE)
      if (name !== undefined) await assertNameFree(account.id, name)
      if (input.slug !== undefined) await assertSlugFree(input.slug)
      return journal.write(account, async (trx) => {
        const campaign = await translateUniqueViolation(
          () => campaigns.in(trx).insert(account.id, { name, slug: input.slug ?? null, isPublic: input.public ?? false }),
          input.slug,
        )
        return { result: campaign, changes: [{ action: 'campaign.created', resource: 'campaign', resourceId: campaign.id, fields: givenFields(input), record: recordOf(campaign, account) }] }
      })
    },

    async updateCampaign(account: AuthenticatedAccount, id: number, input: CampaignUpdateInput): Promise<CampaignRow> {
      await getCampaignOrThrow(account.id, id)
      const name = trimmedName(input.name, CAMPAIGN_NAME_RULE)
      await assertNameFree(account.id, name, id)
      const slug = input.slug === undefined ? undefined : input.slug === '' ? null : input.slug
      if (slug) await assertSlugFree(slug, id)
      const updated = await journal.write(account, async (trx) => {
        const campaign = await translateUniqueViolation(() => campaigns.in(trx).update(account.id, id, { name, slug, isPublic: input.public }), slug)
        if (!campaign) throw NotFoundError.of('Campaign')
        return { result: campaign, changes: [{ action: 'campaign.updated', resource: 'campaign', resourceId: id, fields: givenFields(input), record: recordOf(campaign, account) }] }
      })
      announce(id)
      return updated
    },

    async deleteCampaign(account: AuthenticatedAccount, id: number): Promise<void> {
      const campaign = await getCampaignOrThrow(account.id, id)
      // One transaction: the campaign goes and its links are unassigned, or nothing changes.
      await journal.write(account, async (trx) => {
        if (!(await campaigns.in(trx).delete(account.id, id))) throw NotFoundError.of('Campaign')
        return { result: undefined, changes: [{ action: 'campaign.deleted', resource: 'campaign', resourceId: id, fields: [], record: recordOf(campaign, account) }] }
      })
      announce(id)
    },

    async assignLink(account: AuthenticatedAccount, campaignId: number, linkId: number): Promise<void> {
      await getCampaignOrThrow(account.id, campaignId)
      await journal.write(account, async (trx) => {
        if (!(await links.assignToCampaign(trx, account.id, campaignId, linkId))) throw NotFoundError.of('Link')
        return { result: undefined, changes: [{ action: 'campaign.link_assigned', resource: 'campaign', resourceId: campaignId, fields: [], record: { link: linkId } }] }
      })
      announce(campaignId)
    },

    /** Takes a link out of the campaign; a link that is not in it is not found (404), like an unknown one. */
    async removeLink(account: AuthenticatedAccount, campaignId: number, linkId: number): Promise<void> {
      await getCampaignOrThrow(account.id, campaignId)
      await journal.write(account, async (trx) => {
        if (!(await campaigns.in(trx).unassignLink(account.id, campaignId, linkId))) throw NotFoundError.of('Link')
        return { result: undefined, changes: [{ action: 'campaign.link_removed', resource: 'campaign', resourceId: campaignId, fields: [], record: { link: linkId } }] }
      })
      announce(campaignId)
    },
  }
}

export type CampaignService = ReturnType<typeof createCampaignService>
