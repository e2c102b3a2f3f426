// How other modules reach short links (campaign membership). Short links arrive with the
// short-link issue; until then no link id exists, so every assignment finds no link.

export interface LinkMembership {
  /** Puts the account's link in the campaign (moving it from any other); false when no such link. */
  assignToCampaign(accountId: number, campaignId: number, linkId: number): Promise<boolean>
  /** Takes every link out of the campaign (campaign deletion). */
  removeAllFromCampaign(accountId: number, campaignId: number): Promise<void>
}

/** Membership before the links table exists: there is no link to assign or remove. */
export const noLinksYet: LinkMembership = {
  assignToCampaign: async () => false,
  removeAllFromCampaign: async () => {},
}
