// The `data` of a QR code per type (decisions §6): validated, then normalised to what is stored.
// Messages name the nested field (`The field "data.ssid" is required.`) like body validation does.
import { Type, type TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { PHONE_MESSAGE, QR_DATA_SCHEMAS, QR_TYPES, VCARD_FIELDS, type QrType } from './qr-code.schemas.js'
import { readOptionalFields } from '../../core/optional-fields.js'
import { describeValidationIssue, fieldOfIssue, type ValidationIssue } from '../../core/validation-messages.js'
import { ValidationError } from '../../core/errors.js'
import { isHttpUrl } from '../../core/urls.js'

export interface EmailData {
  email: string
  subject?: string
  body?: string
}
export interface SmsData {
  phone: string
  message?: string
}
export type WifiEncryption = 'WPA' | 'WEP' | 'nopass'
export interface WifiData {
  ssid: string
  pass?: string
  encryption: WifiEncryption
}
export type VcardData = Partial<Record<(typeof VCARD_FIELDS)[number], string>>

/** What is stored in `qr_codes.data`, per type. */
export type QrData =
  | { type: 'text'; data: string }
  | { type: 'link'; data: string }
  | { type: 'email'; data: string | EmailData }
  | { type: 'phone'; data: string }
  | { type: 'sms'; data: SmsData }
  | { type: 'wifi'; data: WifiData }
  | { type: 'vcard'; data: VcardData }

interface DataChecker {
  wrapper: TSchema
  check: ReturnType<typeof Compile>
}

// Wrapped in {data: …} so that issues carry the path `data.<field>`.
const dataCheckers = {} as Record<QrType, DataChecker>
for (const type of QR_TYPES) {
  const wrapper = Type.Object({ data: QR_DATA_SCHEMAS[type] })
  dataCheckers[type] = { wrapper, check: Compile(wrapper) }
}

/** `data` as the rules of `type` read it (optional fields sent as null or "" are not given, ADR 013); throws when it breaks them. */
function checkedData(type: QrType, data: unknown): unknown {
  const { wrapper, check } = dataCheckers[type]
  const reading = readOptionalFields({ data }, wrapper)
  const fail = (issue: ValidationIssue) => new ValidationError(describeValidationIssue('body', issue, wrapper), fieldOfIssue(issue))
  if (reading.issue) throw fail(reading.issue)
  const value = reading.value as { data: unknown }
  if (check.Check(value)) return value.data
  throw fail((check.Errors(value) as ValidationIssue[])[0]!)
}

/** Removes the separators people type in phone numbers and checks what is left. */
function normalisePhone(value: string, field: string): string {
  const compact = value.replace(/[ ().-]/g, '')
  if (!/^\+?[0-9]{3,20}$/.test(compact)) throw ValidationError.field(field, PHONE_MESSAGE)
  return compact
}

function normaliseLink(value: string): string {
  if (!isHttpUrl(value)) throw ValidationError.field('data', 'must be an http or https URL')
  return value
}

function normaliseWifi(raw: { ssid: string; pass?: string; encryption?: WifiEncryption }): WifiData {
  // Without an encryption given, a password means WPA and no password an open network.
  const encryption = raw.encryption ?? (raw.pass ? 'WPA' : 'nopass')
  if (encryption === 'nopass') return { ssid: raw.ssid, encryption }
  if (!raw.pass) throw ValidationError.field('data.pass', 'is required for WPA and WEP networks')
  return { ssid: raw.ssid, pass: raw.pass, encryption }
}

function normaliseVcard(raw: Record<string, string | undefined>): VcardData {
  const vcard: VcardData = {}
  for (const field of VCARD_FIELDS) {
    const value = raw[field]?.trim()
    if (value) vcard[field] = value
  }
  if (!vcard.fname && !vcard.lname) throw ValidationError.field('data', 'must contain a name (fname or lname)')
  if (vcard.email && !/^[^\s@]+@[^\s@]+$/.test(vcard.email)) throw ValidationError.field('data.email', 'must be an e-mail address')
  if (vcard.site && !isHttpUrl(vcard.site)) throw ValidationError.field('data.site', 'must be an http or https URL')
  return vcard
}

/**
 * Checks `data` against the rules of `type` and returns the form stored: only known fields,
 * phone numbers without separators, vCard values trimmed, the Wi-Fi encryption filled in.
 */
export function parseQrData(type: QrType, given: unknown): QrData {
  const data = checkedData(type, given)
  switch (type) {
    case 'text':
      return { type, data: data as string }
    case 'link':
      return { type, data: normaliseLink(data as string) }
    case 'email': {
      if (typeof data === 'string') return { type, data }
      const { email, subject, body } = data as EmailData
      return { type, data: { email, ...(subject ? { subject } : {}), ...(body ? { body } : {}) } }
    }
    case 'phone':
      return { type, data: normalisePhone(data as string, 'data') }
    case 'sms': {
      const { phone, message } = data as SmsData
      return { type, data: { phone: normalisePhone(phone, 'data.phone'), ...(message ? { message } : {}) } }
    }
    case 'wifi':
      return { type, data: normaliseWifi(data as WifiData) }
    case 'vcard':
      return { type, data: normaliseVcard(data as Record<string, string>) }
  }
}

/** Reads a stored row's `data` back into its typed form. */
export function storedQrData(type: string, json: string): QrData {
  return { type, data: JSON.parse(json) } as QrData
}
