// What can be clicked, and the visit handed to the click recorder.

export type ClickItemType = 'link' | 'qr' | 'campaign' | 'bio'

/** The table each kind of clicked item lives in. */
export const ITEM_TABLES = { link: 'links', qr: 'qr_codes', campaign: 'campaigns', bio: 'bio_pages' } as const satisfies Record<ClickItemType, string>

export type ItemTable = (typeof ITEM_TABLES)[ClickItemType]

/** One visit as a transport saw it; the recorder derives everything else off the response path. */
export interface ClickEvent {
  accountId: number
  itemType: ClickItemType
  itemId: number
  ip: string
  userAgent: string | undefined
  referrer: string | undefined
  acceptLanguage: string | undefined
  /** A browser's prefetch or preview, not a visit (never counted). */
  prefetch?: boolean
  /** The split-test variant the visitor was sent to (its position in the link's list). */
  variant?: number
  /** The click id appended to the destination (a link that tracks conversions: ADR 034), made on the request. */
  clickId?: string
  at?: Date
}

/** What the click writer derived of one recorded click, as other systems read it (exports, webhook events). */
export function enrichedFieldsOf(row: { country: string | null; referrer_host: string | null; browser: string | null; os: string | null; device: string | null; language: string | null; is_unique: number }) {
  return {
    country: row.country,
    referrer: row.referrer_host,
    browser: row.browser,
    os: row.os,
    device: row.device,
    language: row.language,
    unique: row.is_unique === 1,
  }
}
