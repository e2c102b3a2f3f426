// Campaign rows to API records; every URL absolute (decisions §5).
import type { CampaignRow } from '../../db/schema.js'

/** Lower-case, ASCII, dash-separated form of a name, for list URLs. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
  return slug || 'campaign'
}

export function rotatorUrl(publicUrl: string, slug: string | null): string | false {
  return slug ? `${publicUrl}/r/${encodeURIComponent(slug)}` : false
}

export function campaignListUrl(publicUrl: string, username: string, campaign: Pick<CampaignRow, 'id' | 'slug' | 'name'>): string {
  return `${publicUrl}/u/${encodeURIComponent(username)}/${campaign.slug ?? slugify(campaign.name)}-${campaign.id}`
}

export function toCampaignRecord(campaign: CampaignRow, publicUrl: string, username: string) {
  return {
    id: campaign.id,
    name: campaign.name,
    public: campaign.is_public === 1,
    rotator: rotatorUrl(publicUrl, campaign.slug),
    list: campaignListUrl(publicUrl, username, campaign),
    views: campaign.views,
  }
}

export function toCampaignSavedResponse(campaign: CampaignRow, publicUrl: string, username: string) {
  const record = toCampaignRecord(campaign, publicUrl, username)
  return { error: 0 as const, ...record, domain: campaign.name, campaign: campaign.name }
}
