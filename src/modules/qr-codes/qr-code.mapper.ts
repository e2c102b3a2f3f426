// QR code rows to API records; every URL absolute (decisions §5).
import type { QrCodeRow } from '../../db/schema.js'
import type { StatisticsObject } from '../statistics/statistics.mapper.js'
import type { QrCodeListRow } from './qr-code.repository.js'

/** `{base}/qr/{alias}`: the public image of a QR code (decisions §6). */
export function qrImageUrl(publicUrl: string, alias: string): string {
  return `${publicUrl}/qr/${alias}`
}

export function toQrListEntry(row: QrCodeListRow, publicUrl: string, tags: string[]) {
  return { id: row.id, link: qrImageUrl(publicUrl, row.alias), scans: row.scans, name: row.name, date: row.created_at, tags }
}

export function toQrDetails(row: QrCodeRow, publicUrl: string, tags: string[]) {
  return {
    ...toQrListEntry(row, publicUrl, tags),
    type: row.type,
    data: JSON.parse(row.data) as string | Record<string, string>,
    background: row.background,
    foreground: row.foreground,
    logo: row.logo_source,
  }
}

export function toQrDetailsResponse(row: QrCodeRow, publicUrl: string, tags: string[], statistics: StatisticsObject) {
  return { error: 0 as const, details: toQrDetails(row, publicUrl, tags), data: statistics }
}
