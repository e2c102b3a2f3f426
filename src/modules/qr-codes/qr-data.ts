// The `data` of a QR code per type (decisions §6): validated, then normalised to what is stored.
// Messages name the nested field (`The field "data.ssid" is required.`) like body validation does.
import { Type, type TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { QR_TYPES, type QrType } from './qr-code.schemas.js'
import { describeValidationIssue } from '../../core/validation-messages.js'
import { ValidationError } from '../../core/errors.js'
import { HttpUrl } from '../../core/schemas.js'
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
export const VCARD_FIELDS = ['fname', 'lname', 'org', 'phone', 'cell', 'fax', 'email', 'site', 'street', 'city', 'state', 'zip', 'country'] as const
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

const PHONE_MESSAGE = 'must be a phone number: digits with an optional leading +'
const EMAIL_RULE = { maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' }
const EmailAddress = Type.String({ ...EMAIL_RULE, errorMessage: 'must be an e-mail address' })
const Phone = Type.String({ maxLength: 32, pattern: '^\\+?[0-9 ().-]+$', errorMessage: PHONE_MESSAGE })
const VcardField = Type.String({ maxLength: 200, errorMessage: 'must be text of at most 200 characters' })

const DATA_SCHEMAS: Record<QrType, TSchema> = {
  text: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', errorMessage: 'must be text of 1 to 2000 characters' }),
  link: HttpUrl,
  email: Type.Union([
    // No message of its own, so a bad string gets the union's message, which names both forms.
    Type.String(EMAIL_RULE),
    Type.Object({
      email: EmailAddress,
      subject: Type.Optional(Type.String({ maxLength: 200, errorMessage: 'must be text of at most 200 characters' })),
      body: Type.Optional(Type.String({ maxLength: 1000, errorMessage: 'must be text of at most 1000 characters' })),
    }),
  ], { errorMessage: 'must be an e-mail address, or an object {email, subject, body}' }),
  phone: Phone,
  sms: Type.Object({
    phone: Phone,
    message: Type.Optional(Type.String({ maxLength: 1000, errorMessage: 'must be text of at most 1000 characters' })),
  }, { errorMessage: 'must be an object {phone, message}' }),
  wifi: Type.Object({
    ssid: Type.String({ minLength: 1, maxLength: 32, errorMessage: 'must be 1 to 32 characters' }),
    pass: Type.Optional(Type.String({ maxLength: 63, errorMessage: 'must be at most 63 characters' })),
    encryption: Type.Optional(Type.Union([Type.Literal('WPA'), Type.Literal('WEP'), Type.Literal('nopass')], { errorMessage: 'must be WPA, WEP or nopass' })),
  }, { errorMessage: 'must be an object {ssid, pass, encryption}' }),
  vcard: Type.Object(
    Object.fromEntries(VCARD_FIELDS.map((field) => [field, Type.Optional(VcardField)])),
    { errorMessage: `must be an object with some of ${VCARD_FIELDS.join(', ')}` },
  ),
}

interface DataChecker {
  wrapper: TSchema
  check: ReturnType<typeof Compile>
}

// Wrapped in {data: …} so that issues carry the path `data.<field>`.
const dataCheckers = {} as Record<QrType, DataChecker>
for (const type of QR_TYPES) {
  const wrapper = Type.Object({ data: DATA_SCHEMAS[type] })
  dataCheckers[type] = { wrapper, check: Compile(wrapper) }
}

function assertMatchesSchema(type: QrType, data: unknown): void {
  const { wrapper, check } = dataCheckers[type]
  const value = { data }
  if (check.Check(value)) return
  const [issue] = check.Errors(value)
  throw new ValidationError(describeValidationIssue('body', issue as Parameters<typeof describeValidationIssue>[1], wrapper))
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
export function parseQrData(type: QrType, data: unknown): QrData {
  assertMatchesSchema(type, data)
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
