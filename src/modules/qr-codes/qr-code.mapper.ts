// QR code rows to API records; every URL absolute (decisions §5).
import type { QrCodeRow } from '../../db/schema.js'
import type { QrCodeListRow } from './qr-code.repository.js'

/** `{base}/qr/{alias}`: the public image of a QR code (decisions §6). */
export function qrImageUrl(publicUrl: string, alias: string): string {
  return `${publicUrl}/qr/${alias}`
}

export function toQrListEntry(row: QrCodeListRow, publicUrl: string) {
  return { id: row.id, link: qrImageUrl(publicUrl, row.alias), scans: row.scans, name: row.name, date: row.created_at }
}

export function toQrDetails(row: QrCodeRow, publicUrl: string) {
  return {
    ...toQrListEntry(row, publicUrl),
    type: row.type,
    data: JSON.parse(row.data) as string | Record<string, string>,
    background: row.background,
    foreground: row.foreground,
    logo: row.logo_source,
  }
}

/**
 * The spec's statistics object. Until click analytics exist, `clicks` is the row's scan counter
 * and the rest is empty; the analytics issue replaces this function's source, not its callers.
 */
export function toQrStatistics(row: Pick<QrCodeRow, 'scans'>) {
  return {
    clicks: row.scans,
    uniqueClicks: 0,
    topCountries: {} as Record<string, string>,
    topReferrers: {} as Record<string, string>,
    topBrowsers: {} as Record<string, string>,
    topOs: {} as Record<string, string>,
    socialCount: { facebook: 0, twitter: 0, instagram: 0 },
  }
}

export function toQrDetailsResponse(row: QrCodeRow, publicUrl: string) {
  return { error: 0 as const, details: toQrDetails(row, publicUrl), data: toQrStatistics(row) }
}
