// Request and response schemas of the QR code endpoints and the public QR image.
import { Type, type Static, type TSchema } from 'typebox'
import { SocialCount, TopList } from '../statistics/statistics.schemas.js'
import { Clearable, DateTime, HttpUrl, listResponse, MULTILINE, PageQuery, UpdateBody } from '../../core/schemas.js'
import { TagFilter, TagNames, TagsInput } from '../tags/tag.schemas.js'

/** spec: QR types accepted on creation. */
export const QR_TYPES = ['text', 'vcard', 'link', 'email', 'phone', 'sms', 'wifi'] as const
export type QrType = (typeof QR_TYPES)[number]

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
/** decisions §6: colors as `rgb(r,g,b)`, 0-255 each (spaces around the numbers allowed). */
export const RGB_COLOR_PATTERN = `^rgb\\(\\s*${OCTET}\\s*,\\s*${OCTET}\\s*,\\s*${OCTET}\\s*\\)$`

const Color = Type.String({ pattern: RGB_COLOR_PATTERN, errorMessage: 'must be a color written rgb(r,g,b) with each value from 0 to 255' })
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', errorMessage: 'must be 1 to 100 characters' })
const LOGO_RULE = { minLength: 1, maxLength: 2048 }
const LogoSource = Type.String({ ...LOGO_RULE, errorMessage: 'must be an http(s) URL or a path in the upload folder' })

export const VCARD_FIELDS = ['fname', 'lname', 'org', 'phone', 'cell', 'fax', 'email', 'site', 'street', 'city', 'state', 'zip', 'country'] as const
export const PHONE_MESSAGE = 'must be a phone number: digits with an optional leading +'
const EMAIL_RULE = { maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' }
const EmailAddress = Type.String({ ...EMAIL_RULE, errorMessage: 'must be an e-mail address' })
const Phone = Type.String({ maxLength: 32, pattern: '^\\+?[0-9 ().-]+$', errorMessage: PHONE_MESSAGE })
const VcardField = Type.String({ maxLength: 200, errorMessage: 'must be text of at most 200 characters' })

/**
 * `data` per type (decisions §6): the shape the OpenAPI document shows for each type and the one
 * the service checks an update's data against (the stored type decides there).
 */
export const QR_DATA_SCHEMAS = {
  text: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', ...MULTILINE, errorMessage: 'must be text of 1 to 2000 characters' }),
  link: HttpUrl,
  email: Type.Union([
    // No message of its own, so a bad string gets the union's message, which names both forms.
    Type.String(EMAIL_RULE),
    Type.Object({
      email: EmailAddress,
      subject: Type.Optional(Type.String({ maxLength: 200, errorMessage: 'must be text of at most 200 characters' })),
      body: Type.Optional(Type.String({ maxLength: 1000, ...MULTILINE, errorMessage: 'must be text of at most 1000 characters' })),
    }),
  ], { errorMessage: 'must be an e-mail address, or an object {email, subject, body}' }),
  phone: Phone,
  sms: Type.Object({
    phone: Phone,
    message: Type.Optional(Type.String({ maxLength: 1000, ...MULTILINE, errorMessage: 'must be text of at most 1000 characters' })),
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
} satisfies Record<QrType, TSchema>


const TYPE_RULE = `must be one of ${QR_TYPES.join(', ')}`

/**
 * One body shape per type, told apart by `type` (the request validator reports the issues of the
 * shape a body names, http/validator.ts): the document shows what `data` each type takes.
 */
function createShape<T extends QrType>(type: T) {
  return Type.Object({
    type: Type.Literal(type, { errorMessage: TYPE_RULE }),
    data: QR_DATA_SCHEMAS[type],
    background: Type.Optional(Color),
    foreground: Type.Optional(Color),
    logo: Type.Optional(LogoSource),
    name: Type.Optional(Name),
    tags: Type.Optional(TagsInput),
  })
}

export const QrCreateBody = Type.Union([
  createShape('text'), createShape('vcard'), createShape('link'), createShape('email'), createShape('phone'), createShape('sms'), createShape('wifi'),
])

export type QrCreateInput = Static<typeof QrCreateBody>
// Fails to compile when a type has no body shape above.
const everyTypeShaped: Exclude<QrType, QrCreateInput['type']> extends never ? true : never = true
void everyTypeShaped

export const QrUpdateBody = UpdateBody({
  // Checked by the service against the code's stored type (QR_DATA_SCHEMAS); here only its JSON kind.
  data: Type.Union([Type.String(), Type.Object({})], { ...MULTILINE, errorMessage: 'must be a string or an object, depending on the type', description: 'the shape of the code\'s type, as on creation' }),
  background: Type.Optional(Color),
  foreground: Type.Optional(Color),
  // The branches carry no message, so the union's is used.
  logo: Type.Optional(Clearable(Type.String(LOGO_RULE), 'no logo', { errorMessage: 'must be an http(s) URL, a path in the upload folder, or empty' })),
  name: Type.Optional(Name),
  tags: Type.Optional(TagsInput),
})

export type QrUpdateInput = Static<typeof QrUpdateBody>

export const QrListEntry = Type.Object({
  id: Type.Integer(),
  link: Type.String(),
  scans: Type.Integer(),
  name: Type.String(),
  date: DateTime,
  tags: TagNames,
})

/** `?tag=a&tag=b`: only the codes that carry every one of these tags. */
export const QrListQuery = Type.Object({ ...PageQuery.properties, tag: Type.Optional(TagFilter) })

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

/** A preview's answer: the image itself (documented per content type, never serialised as JSON). */
export const QrPreviewImage = {
  description: 'the image: PNG, or SVG with format=svg',
  content: {
    'image/png': { schema: Type.String({ format: 'binary' }) },
    'image/svg+xml': { schema: Type.String() },
  },
}

// Any text: an alias that cannot exist is simply not found (404), not a bad request.
export const QrAliasParams = Type.Object({ alias: Type.String() })
