// Request and response schemas of the QR code endpoints and the public QR image.
import { Type } from 'typebox'
import { SocialCount, TopList } from '../statistics/statistics.schemas.js'
import { DateTime, listResponse, MULTILINE } from '../../core/schemas.js'

/** spec: QR types accepted on creation. */
export const QR_TYPES = ['text', 'vcard', 'link', 'email', 'phone', 'sms', 'wifi'] as const
export type QrType = (typeof QR_TYPES)[number]

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
/** decisions §6: colors as `rgb(r,g,b)`, 0-255 each (spaces around the numbers allowed). */
export const RGB_COLOR_PATTERN = `^rgb\\(\\s*${OCTET}\\s*,\\s*${OCTET}\\s*,\\s*${OCTET}\\s*\\)$`

const Color = Type.String({ pattern: RGB_COLOR_PATTERN, errorMessage: 'must be a color written rgb(r,g,b) with each value from 0 to 255' })
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', errorMessage: 'must be 1 to 100 characters' })
// Checked per type by the service (qr-data.ts); here only its JSON kind.
// Free-form: a text code, an e-mail body or an SMS may span lines.
const Data = Type.Union([Type.String(), Type.Object({})], { ...MULTILINE, errorMessage: 'must be a string or an object, depending on the type' })
const LOGO_RULE = { minLength: 1, maxLength: 2048 }
const LogoSource = Type.String({ ...LOGO_RULE, errorMessage: 'must be an http(s) URL or a path in the upload folder' })

export const QrCreateBody = Type.Object({
  type: Type.Union(QR_TYPES.map((type) => Type.Literal(type)), { errorMessage: `must be one of ${QR_TYPES.join(', ')}` }),
  data: Data,
  background: Type.Optional(Color),
  foreground: Type.Optional(Color),
  logo: Type.Optional(LogoSource),
  name: Type.Optional(Name),
})

export const QrUpdateBody = Type.Object({
  data: Data,
  background: Type.Optional(Color),
  foreground: Type.Optional(Color),
  // An empty string removes the logo. The branches carry no message, so the union's is used.
  logo: Type.Optional(Type.Union([Type.String(LOGO_RULE), Type.Literal('')], { errorMessage: 'must be an http(s) URL, a path in the upload folder, or empty' })),
  name: Type.Optional(Name),
})

export const QrListEntry = Type.Object({
  id: Type.Integer(),
  link: Type.String(),
  scans: Type.Integer(),
  name: Type.String(),
  date: DateTime,
})

export const QrListResponse = listResponse('qrs', QrListEntry)

export const QrCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer(), link: Type.String() })

/** The stored `data`: a string, or an object of string fields. */
const StoredData = Type.Union([Type.String(), Type.Record(Type.String(), Type.String())])

export const QrDetails = Type.Object({
  ...QrListEntry.properties,
  type: Type.String(),
  data: StoredData,
  background: Type.String(),
  foreground: Type.String(),
  logo: Type.Union([Type.String(), Type.Null()], { description: 'where the logo came from (URL or upload path), or null' }),
})

/** spec: QR statistics object; top lists map a label to a count written as a string (at most 10, highest first). */
export const QrStatistics = Type.Object({
  clicks: Type.Integer(),
  uniqueClicks: Type.Integer(),
  topCountries: TopList,
  topReferrers: TopList,
  topBrowsers: TopList,
  topOs: TopList,
  socialCount: SocialCount,
})

export const QrDetailsResponse = Type.Object({ error: Type.Literal(0), details: QrDetails, data: QrStatistics })

/** The public image: PNG unless `format=svg`; `size` in pixels. */
export const QR_IMAGE_MIN_SIZE = 100
export const QR_IMAGE_MAX_SIZE = 1000
export const QR_IMAGE_DEFAULT_SIZE = 300

export const QrImageQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('png'), Type.Literal('svg')], { errorMessage: 'must be png or svg' })),
  size: Type.Optional(Type.Integer({
    minimum: QR_IMAGE_MIN_SIZE,
    maximum: QR_IMAGE_MAX_SIZE,
    errorMessage: `must be a whole number from ${QR_IMAGE_MIN_SIZE} to ${QR_IMAGE_MAX_SIZE}`,
  })),
})

// Any text: an alias that cannot exist is simply not found (404), not a bad request.
export const QrAliasParams = Type.Object({ alias: Type.String() })
