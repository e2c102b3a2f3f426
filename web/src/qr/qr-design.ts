// The QR designer's form: one set of fields per type (decisions §6), the colors as the API writes
// them (`rgb(r,g,b)`) and as the color picker does (`#rrggbb`), the logo's source, and the client
// checks that mirror the server's rules (src/modules/qr-codes/qr-code.schemas.ts, qr-data.ts; the URL
// rule is the server's own, src/core/urls.ts).
import { isHttpUrl, isHttpUrlInput } from '../../../src/core/urls'
import type { paths } from '../api/schema'

export type QrCreateBody = paths['/api/qr/add']['post']['requestBody']['content']['application/json']
export type QrUpdateBody = paths['/api/qr/{id}/update']['put']['requestBody']['content']['application/json']
export type QrDetails = paths['/api/qr/{id}']['get']['responses'][200]['content']['application/json']['details']

export const QR_TYPES = ['link', 'text', 'email', 'phone', 'sms', 'wifi', 'vcard'] as const
export type QrType = (typeof QR_TYPES)[number]

export const TYPE_LABELS: Record<QrType, string> = {
  link: 'Link',
  text: 'Text',
  email: 'E-mail',
  phone: 'Phone',
  sms: 'SMS',
  wifi: 'Wi-Fi',
  vcard: 'vCard',
}

export const VCARD_FIELDS = ['fname', 'lname', 'org', 'phone', 'cell', 'fax', 'email', 'site', 'street', 'city', 'state', 'zip', 'country'] as const
export type VcardField = (typeof VCARD_FIELDS)[number]

export const VCARD_LABELS: Record<VcardField, string> = {
  fname: 'First name', lname: 'Last name', org: 'Organisation', phone: 'Phone', cell: 'Mobile', fax: 'Fax',
  email: 'E-mail', site: 'Website', street: 'Street', city: 'City', state: 'State or region', zip: 'Postal code', country: 'Country',
}

export type WifiEncryption = 'WPA' | 'WEP' | 'nopass'
export type LogoMode = 'none' | 'upload' | 'url'

export interface QrFormValues {
  type: QrType
  name: string
  text: string
  link: string
  email: { email: string; subject: string; body: string }
  phone: string
  sms: { phone: string; message: string }
  wifi: { ssid: string; pass: string; encryption: WifiEncryption }
  vcard: Record<VcardField, string>
  foreground: string
  background: string
  logoMode: LogoMode
  /** The upload folder path the server answered for an uploaded file. */
  logoPath: string
  logoUrl: string
  /** The code's tags by name (new names become tags when saved). */
  tags: string[]
}

/** Errors by field name as the server names them (`data.ssid`, `foreground`, `logo`). */
export type QrFormErrors = Partial<Record<string, string>>

const EMPTY_VCARD = Object.fromEntries(VCARD_FIELDS.map((field) => [field, ''])) as Record<VcardField, string>

export const emptyQrForm: QrFormValues = {
  type: 'link',
  tags: [],
  name: '',
  text: '',
  link: '',
  email: { email: '', subject: '', body: '' },
  phone: '',
  sms: { phone: '', message: '' },
  wifi: { ssid: '', pass: '', encryption: 'WPA' },
  vcard: EMPTY_VCARD,
  foreground: 'rgb(0,0,0)',
  background: 'rgb(255,255,255)',
  logoMode: 'none',
  logoPath: '',
  logoUrl: '',
}

const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/

/** `rgb(r,g,b)` → its numbers, or undefined when it is not that form with 0-255 values. */
export function parseRgb(color: string): [number, number, number] | undefined {
  const match = RGB.exec(color.trim())
  if (!match) return undefined
  const values = match.slice(1).map(Number) as [number, number, number]
  return values.every((value) => value <= 255) ? values : undefined
}

/** `rgb(r,g,b)` → `#rrggbb` for the color picker; black when the text is not a color yet. */
export function rgbToHex(color: string): string {
  const values = parseRgb(color) ?? [0, 0, 0]
  return `#${values.map((value) => value.toString(16).padStart(2, '0')).join('')}`
}

/** `#rrggbb` (the picker's value) → `rgb(r,g,b)`. */
export function hexToRgb(hex: string): string {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex)
  if (!match) return 'rgb(0,0,0)'
  return `rgb(${match.slice(1).map((part) => parseInt(part, 16)).join(',')})`
}

/** The same color however it is spaced: `rgb(1, 2, 3)` and `rgb(1,2,3)` are equal. */
function sameColor(a: string, b: string): boolean {
  const left = parseRgb(a)
  const right = parseRgb(b)
  return left !== undefined && right !== undefined && left.every((value, index) => value === right[index])
}

const PHONE = /^\+?[0-9 ().-]+$/
const EMAIL = /^[^\s@]+@[^\s@]+$/

function checkPhone(value: string): string | undefined {
  if (value.trim() === '') return 'Enter a phone number.'
  if (value.length > 32 || !PHONE.test(value) || !/^\+?[0-9]{3,20}$/.test(value.replace(/[ ().-]/g, ''))) return 'Must be a phone number: digits with an optional leading +.'
  return undefined
}

/** The client's checks of the fields of the current type, the colors and the logo. */
export function validateQrForm(values: QrFormValues): QrFormErrors {
  const errors: QrFormErrors = {}
  switch (values.type) {
    case 'link':
      if (values.link.trim() === '') errors.data = 'Enter the address people should reach.'
      else if (!isHttpUrlInput(values.link)) errors.data = 'Must be an http or https URL, e.g. https://example.com/menu.'
      break
    case 'text':
      if (values.text.trim() === '') errors.data = 'Enter the text to encode.'
      else if (values.text.length > 2000) errors.data = 'Must be at most 2000 characters.'
      break
    case 'email':
      if (!EMAIL.test(values.email.email.trim()) || values.email.email.length > 254) errors['data.email'] = 'Must be an e-mail address.'
      if (values.email.subject.length > 200) errors['data.subject'] = 'Must be at most 200 characters.'
      if (values.email.body.length > 1000) errors['data.body'] = 'Must be at most 1000 characters.'
      break
    case 'phone': {
      const problem = checkPhone(values.phone)
      if (problem) errors.data = problem
      break
    }
    case 'sms': {
      const problem = checkPhone(values.sms.phone)
      if (problem) errors['data.phone'] = problem
      if (values.sms.message.length > 1000) errors['data.message'] = 'Must be at most 1000 characters.'
      break
    }
    case 'wifi':
      if (values.wifi.ssid.length < 1 || values.wifi.ssid.length > 32) errors['data.ssid'] = 'Enter the network name (1 to 32 characters).'
      if (values.wifi.encryption !== 'nopass' && values.wifi.pass === '') errors['data.pass'] = 'Enter the password, or choose an open network.'
      else if (values.wifi.pass.length > 63) errors['data.pass'] = 'Must be at most 63 characters.'
      break
    case 'vcard':
      if (values.vcard.fname.trim() === '' && values.vcard.lname.trim() === '') errors['data.fname'] = 'Enter a first or last name.'
      for (const field of VCARD_FIELDS) {
        if (values.vcard[field].length > 200) errors[`data.${field}`] = 'Must be at most 200 characters.'
      }
      if (values.vcard.email.trim() !== '' && !EMAIL.test(values.vcard.email.trim())) errors['data.email'] = 'Must be an e-mail address.'
      if (values.vcard.site.trim() !== '' && !isHttpUrl(values.vcard.site.trim())) errors['data.site'] = 'Must be an http or https URL.'
      break
  }
  if (values.name.length > 100 || (values.name !== '' && values.name.trim() === '')) errors.name = 'Must be 1 to 100 characters.'
  if (!parseRgb(values.foreground)) errors.foreground = 'Must be a color written rgb(r,g,b), each value from 0 to 255.'
  if (!parseRgb(values.background)) errors.background = 'Must be a color written rgb(r,g,b), each value from 0 to 255.'
  if (!errors.foreground && !errors.background && sameColor(values.foreground, values.background)) errors.foreground = 'Must differ from the background color.'
  if (values.logoMode === 'url' && !isHttpUrl(values.logoUrl.trim())) errors.logo = 'Must be an http or https address of a PNG or JPEG image.'
  if (values.logoMode === 'upload' && values.logoPath === '') errors.logo = 'Choose a PNG or JPEG file, or pick "No logo".'
  return errors
}

function optional(value: string): string | undefined {
  const trimmed = value.trim()
  return trimmed === '' ? undefined : trimmed
}

/** The `data` of the current type, as the API takes it. */
export function dataOf(values: QrFormValues): QrCreateBody['data'] {
  switch (values.type) {
    case 'link': return values.link.trim()
    case 'text': return values.text
    case 'phone': return values.phone.trim()
    case 'email': {
      const subject = optional(values.email.subject)
      const body = values.email.body.trim() === '' ? undefined : values.email.body
      return subject || body ? { email: values.email.email.trim(), subject, body } : values.email.email.trim()
    }
    case 'sms': return { phone: values.sms.phone.trim(), message: values.sms.message === '' ? undefined : values.sms.message }
    case 'wifi': return values.wifi.encryption === 'nopass'
      ? { ssid: values.wifi.ssid, encryption: 'nopass' }
      : { ssid: values.wifi.ssid, pass: values.wifi.pass, encryption: values.wifi.encryption }
    case 'vcard': return Object.fromEntries(VCARD_FIELDS.map((field) => [field, optional(values.vcard[field])]).filter(([, value]) => value !== undefined))
  }
}

/** The logo as the API takes it: an upload path or a URL; undefined for none. */
export function logoOf(values: QrFormValues): string | undefined {
  if (values.logoMode === 'upload') return values.logoPath || undefined
  if (values.logoMode === 'url') return optional(values.logoUrl)
  return undefined
}

/** The body of POST /api/qr/add (and of the new code's preview). */
export function toCreateBody(values: QrFormValues): QrCreateBody {
  return {
    type: values.type,
    data: dataOf(values),
    foreground: values.foreground.trim(),
    background: values.background.trim(),
    logo: logoOf(values),
    name: optional(values.name),
    tags: values.tags.length > 0 ? values.tags : undefined,
  } as QrCreateBody
}

/**
 * The body of PUT /api/qr/{id}/update (and of its preview). The logo is sent only when it changed:
 * left out, the stored image stays (no new fetch); empty, it is removed.
 */
export function toUpdateBody(values: QrFormValues, initial: QrFormValues): QrUpdateBody {
  const logo = logoOf(values)
  const initialLogo = logoOf(initial)
  return {
    data: dataOf(values) as QrUpdateBody['data'],
    foreground: values.foreground.trim(),
    background: values.background.trim(),
    ...(logo === initialLogo ? {} : { logo: logo ?? '' }),
    ...(optional(values.name) ? { name: values.name.trim() } : {}),
    tags: values.tags,
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The form of a stored code (GET /api/qr/{id} details). */
export function valuesFromDetails(details: QrDetails): QrFormValues {
  const type = (QR_TYPES as readonly string[]).includes(details.type) ? details.type as QrType : 'text'
  const data = details.data
  const record = typeof data === 'string' ? {} : data
  const values: QrFormValues = {
    ...emptyQrForm,
    type,
    name: details.name,
    tags: details.tags ?? [],
    foreground: details.foreground,
    background: details.background,
    logoMode: details.logo === null ? 'none' : /^[a-z][a-z0-9+.-]*:/i.test(details.logo) ? 'url' : 'upload',
    logoPath: details.logo !== null && !/^[a-z][a-z0-9+.-]*:/i.test(details.logo) ? details.logo : '',
    logoUrl: details.logo !== null && /^[a-z][a-z0-9+.-]*:/i.test(details.logo) ? details.logo : '',
  }
  switch (type) {
    case 'link': return { ...values, link: text(data) }
    case 'text': return { ...values, text: text(data) }
    case 'phone': return { ...values, phone: text(data) }
    case 'email': return { ...values, email: typeof data === 'string' ? { email: data, subject: '', body: '' } : { email: text(record.email), subject: text(record.subject), body: text(record.body) } }
    case 'sms': return { ...values, sms: { phone: text(record.phone), message: text(record.message) } }
    case 'wifi': {
      const encryption = record.encryption === 'WEP' || record.encryption === 'nopass' ? record.encryption : 'WPA'
      return { ...values, wifi: { ssid: text(record.ssid), pass: text(record.pass), encryption } }
    }
    case 'vcard': return { ...values, vcard: { ...EMPTY_VCARD, ...Object.fromEntries(VCARD_FIELDS.map((field) => [field, text(record[field])])) } }
  }
}

/** Sizes offered for PNG downloads, in pixels (the server draws 100 to 1000). */
export const DOWNLOAD_SIZES = [300, 600, 1000] as const

/** The address of a code's image: PNG at `size`, or SVG. */
export function imageAddress(link: string, format: 'png' | 'svg', size: number): string {
  const url = new URL(link)
  if (format === 'svg') url.searchParams.set('format', 'svg')
  url.searchParams.set('size', String(size))
  return url.toString()
}
