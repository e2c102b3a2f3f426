// The text a QR code carries, per type, in the formats phone scanners understand: vCard 3.0
// (RFC 2426), the de-facto `WIFI:` format (ZXing), `mailto:` (RFC 6068), `tel:` (RFC 3966) and
// `SMSTO:`. Links are encoded as our own tracking address so scans can be counted (decisions §6).
import type { EmailData, QrData, SmsData, VcardData, WifiData } from './qr-data.js'

/** Escapes a vCard 3.0 text value: backslash, comma, semicolon and line breaks. */
export function escapeVcardText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/,/g, '\\,')
    .replace(/;/g, '\\;')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** A vCard 3.0 with the fields present, lines ending in CRLF. */
export function encodeVcard(card: VcardData): string {
  const text = (value: string | undefined) => escapeVcardText(value ?? '')
  const fullName = [card.fname, card.lname].filter(Boolean).join(' ')
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `N:${text(card.lname)};${text(card.fname)};;;`, `FN:${text(fullName)}`]
  if (card.org) lines.push(`ORG:${text(card.org)}`)
  if (card.phone) lines.push(`TEL;TYPE=VOICE:${text(card.phone)}`)
  if (card.cell) lines.push(`TEL;TYPE=CELL:${text(card.cell)}`)
  if (card.fax) lines.push(`TEL;TYPE=FAX:${text(card.fax)}`)
  if (card.email) lines.push(`EMAIL;TYPE=INTERNET:${text(card.email)}`)
  if (card.site) lines.push(`URL:${text(card.site)}`)
  if (card.street || card.city || card.state || card.zip || card.country) {
    // ADR: post office box; extended address; street; locality; region; postal code; country
    lines.push(`ADR:;;${text(card.street)};${text(card.city)};${text(card.state)};${text(card.zip)};${text(card.country)}`)
  }
  lines.push('END:VCARD')
  return lines.map((line) => `${line}\r\n`).join('')
}

/** Escapes a value of the `WIFI:` format: backslash, semicolon, comma, colon and double quote. */
export function escapeWifiValue(value: string): string {
  return value.replace(/[\\;,:"]/g, (character) => `\\${character}`)
}

/** `WIFI:T:<encryption>;S:<ssid>;P:<password>;;`, without `P` for open networks. */
export function encodeWifi(wifi: WifiData): string {
  const password = wifi.encryption === 'nopass' || wifi.pass === undefined ? '' : `P:${escapeWifiValue(wifi.pass)};`
  return `WIFI:T:${wifi.encryption};S:${escapeWifiValue(wifi.ssid)};${password};`
}

/** `mailto:address?subject=…&body=…` with the parts percent-encoded. */
export function encodeEmail(email: string | EmailData): string {
  const message: EmailData = typeof email === 'string' ? { email } : email
  const address = encodeURIComponent(message.email).replace(/%40/g, '@')
  const query = [
    message.subject ? `subject=${encodeURIComponent(message.subject)}` : undefined,
    message.body ? `body=${encodeURIComponent(message.body)}` : undefined,
  ].filter(Boolean)
  return `mailto:${address}${query.length > 0 ? `?${query.join('&')}` : ''}`
}

/** `SMSTO:<number>:<message>`. */
export function encodeSms(sms: SmsData): string {
  return `SMSTO:${sms.phone}:${sms.message ?? ''}`
}

/** The address a link-type QR code encodes: ours, which redirects to the stored URL. */
export function qrTrackingUrl(publicUrl: string, alias: string): string {
  return `${publicUrl}/qr/${alias}/scan`
}

/** The text encoded in the QR symbol; `trackingUrl` is used by the link type. */
export function encodeQrPayload(qr: QrData, trackingUrl: string): string {
  switch (qr.type) {
    case 'text':
      return qr.data
    case 'link':
      return trackingUrl
    case 'email':
      return encodeEmail(qr.data)
    case 'phone':
      return `tel:${qr.data}`
    case 'sms':
      return encodeSms(qr.data)
    case 'wifi':
      return encodeWifi(qr.data)
    case 'vcard':
      return encodeVcard(qr.data)
  }
}
