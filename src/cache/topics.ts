// The invalidation topics: what changed, so that every instance drops its cached copies.
// Keys: ALIAS (`${host}\n${alias}`, see public/reserved-aliases.ts aliasKey), DOMAIN (hostname),
// CAMPAIGN (campaign id); OVERLAY, SPLASH and PIXEL (record id) clear every cached link that
// embeds such a record.
export const ALIAS_TOPIC = 'alias'
export const DOMAIN_TOPIC = 'domain'
export const CAMPAIGN_TOPIC = 'campaign'
export const OVERLAY_TOPIC = 'overlay'
export const SPLASH_TOPIC = 'splash'
export const PIXEL_TOPIC = 'pixel'
/** An account, its keys or its plan changed: cached key lookups are dropped (any key). */
export const ACCOUNT_TOPIC = 'account'

/** Called by a service after it changed or deleted the record under `key`. */
export type Announce = (key: string) => void

export const announceNothing: Announce = () => {}
