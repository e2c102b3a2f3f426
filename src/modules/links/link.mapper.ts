// Short-link rows to API records; every URL absolute (decisions §5).
import { shortUrl } from '../aliases/alias-namespace.js'
import type { StatisticsObject } from '../statistics/statistics.mapper.js'
import { formatLinkType } from './link-input.js'
import type { LinkListRow, LinkWithDomain } from './link.repository.js'
import { parseStoredTargeting } from './link-targeting.js'
import { parseStoredOptions } from './link-options.js'
import type { LinkHealth } from '../link-health/destination-probe.js'

/** A link's options as the API shows them (issue 23): null where not set; a split test's variants with their clicks. */
export function toLinkOptionsRecord(stored: string, variantClicks: ReadonlyMap<number, number> = new Map()) {
  const options = parseStoredOptions(stored)
  return {
    utm: options.utm,
    clicklimit: options.clickLimit,
    expiredurl: options.expiredUrl,
    ios: options.ios,
    android: options.android,
    variants: options.variants && options.variants.map((variant, index) => ({ ...variant, clicks: variantClicks.get(index) ?? 0 })),
    brokenurl: options.brokenUrl,
    trackconversions: options.trackConversions === true,
    passthrough: options.passthrough,
  }
}

export function toLinkListEntry(row: LinkListRow, pixelIds: number[], publicUrl: string, tags: string[]) {
  return {
    id: row.id,
    alias: row.alias,
    shorturl: shortUrl(publicUrl, row.domain_origin, row.alias),
    longurl: row.url,
    title: row.title,
    description: row.description,
    clicks: row.clicks,
    uniqueclicks: row.unique_clicks,
    date: row.created_at,
    domain: row.domain_origin,
    campaign: row.campaign_id,
    pixels: pixelIds,
    type: formatLinkType({ type: row.type, splashId: row.splash_id, overlayId: row.overlay_id }),
    expiry: row.expires_at,
    password: row.password_hash !== null,
    tags,
    // What the link checker last found at the destination (issue 23, ADR 026).
    health: { state: row.health as LinkHealth, status: row.health_status, checkedat: row.health_checked_at },
  }
}

/** Every field of a link as the API's single read shows it (`details`): what exports write too. */
export function toLinkDetails(row: LinkWithDomain, pixelIds: number[], publicUrl: string, tags: string[], variantClicks?: ReadonlyMap<number, number>) {
  return { ...toLinkListEntry(row, pixelIds, publicUrl, tags), targeting: parseStoredTargeting(row.targeting), ...toLinkOptionsRecord(row.options, variantClicks) }
}

/** decisions §6: the single read answers the link and its statistics in the QR statistics shape. */
export function toLinkDetailsResponse(row: LinkWithDomain, pixelIds: number[], publicUrl: string, tags: string[], statistics: StatisticsObject, card: string | null, variantClicks?: ReadonlyMap<number, number>) {
  return {
    error: 0 as const,
    id: row.id,
    details: { ...toLinkDetails(row, pixelIds, publicUrl, tags, variantClicks), card },
    data: statistics,
  }
}
