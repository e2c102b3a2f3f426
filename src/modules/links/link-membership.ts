// How other modules reach short links: campaign membership (a link is in at most one campaign)
// and whether a branded domain still carries links.
import type { DB } from '../../db/database.js'
import { createLinkRepository } from './link.repository.js'

export interface LinkMembership {
  /** Puts the account's link in the campaign (moving it from any other); false when no such link. */
  assignToCampaign(accountId: number, campaignId: number, linkId: number): Promise<boolean>
  /** Takes every link out of the campaign (campaign deletion). */
  removeAllFromCampaign(accountId: number, campaignId: number): Promise<void>
}

/** Campaign membership kept in `links.campaign_id`: assigning moves the link, it is never in two. */
export function createLinkMembership(db: DB): LinkMembership {
  const links = createLinkRepository(db)
  return {
    assignToCampaign: (accountId, campaignId, linkId) => links.setCampaign(accountId, linkId, campaignId),
    removeAllFromCampaign: (accountId, campaignId) => links.clearCampaign(accountId, campaignId),
  }
}

export interface DomainLinks {
  /** True when the account has short links served on the domain. */
  hasLinks(accountId: number, domainId: number): Promise<boolean>
}

/** What the domain service asks before deleting a branded domain. */
export function createDomainLinks(db: DB): DomainLinks {
  const links = createLinkRepository(db)
  return { hasLinks: (accountId, domainId) => links.hasLinksOnDomain(accountId, domainId) }
}
