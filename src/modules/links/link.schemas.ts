// Request and response schemas of the short-link endpoints (decisions §6: Short links).
import { Type, type Static } from 'typebox'
import { QrStatistics } from '../qr-codes/qr-code.schemas.js'
import { COUNTRY_RULE, DEVICE_RULE, LANGUAGE_RULE, MAX_TARGETS, TARGET_DEVICES } from './link-targeting.js'
import { Alias, Clearable, DateTime, HttpUrl, Id, MAX_ID, PageQuery, PositiveId, listResponse, MULTILINE, UpdateBody } from '../../core/schemas.js'
import { TIMESTAMP_INPUT_PATTERN } from '../../core/time.js'

// Inside unions, branches carry no message of their own (PositiveId) so that the union's message is used.
const DOMAIN_RULE = 'must be one of your branded domains, as its address (https://go.example.com) or its id'
const Password = Type.String({ minLength: 1, maxLength: 128, errorMessage: 'must be 1 to 128 characters' })
const EXPIRY_RULE = 'must be a date-time YYYY-MM-DD HH:MM:SS or a date YYYY-MM-DD (UTC)'
const Expiry = Type.String({ pattern: TIMESTAMP_INPUT_PATTERN, errorMessage: EXPIRY_RULE })
const LinkType = Type.Union(
  [Type.String({ pattern: '^(direct|frame|splash|overlay-[0-9]{1,16}|[0-9]{1,16})$' }), PositiveId],
  { errorMessage: 'must be direct, frame, splash, a splash page id or overlay-<id>' },
)
const MetaTitle = Type.String({ maxLength: 200, errorMessage: 'must be text of at most 200 characters' })
const MetaDescription = Type.String({ maxLength: 500, ...MULTILINE, errorMessage: 'must be text of at most 500 characters' })
const Pixels = Type.Array(Id, { maxItems: MAX_TARGETS, errorMessage: `must be a list of at most ${MAX_TARGETS} pixel ids` })

const GeoTargets = Type.Array(
  Type.Object({
    location: Type.String({ pattern: '^[A-Za-z]{2}$', errorMessage: COUNTRY_RULE }),
    link: HttpUrl,
  }),
  { maxItems: MAX_TARGETS, errorMessage: `must be a list of at most ${MAX_TARGETS} {location, link} entries` },
)
const DeviceTargets = Type.Array(
  Type.Object({
    device: Type.Enum(TARGET_DEVICES, { errorMessage: DEVICE_RULE }),
    link: HttpUrl,
  }),
  { maxItems: MAX_TARGETS, errorMessage: `must be a list of at most ${MAX_TARGETS} {device, link} entries` },
)
const LanguageTargets = Type.Array(
  Type.Object({
    language: Type.String({ pattern: '^[A-Za-z]{2}$', errorMessage: LANGUAGE_RULE }),
    link: HttpUrl,
  }),
  { maxItems: MAX_TARGETS, errorMessage: `must be a list of at most ${MAX_TARGETS} {language, link} entries` },
)

const sharedFields = {
  custom: Type.Optional(Alias),
  type: Type.Optional(LinkType),
  pixels: Type.Optional(Pixels),
  channel: Type.Optional(Id),
  geotarget: Type.Optional(GeoTargets),
  devicetarget: Type.Optional(DeviceTargets),
  languagetarget: Type.Optional(LanguageTargets),
}

export const LinkCreateBody = Type.Object({
  url: HttpUrl,
  ...sharedFields,
  domain: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 300 }), PositiveId], { errorMessage: DOMAIN_RULE })),
  password: Type.Optional(Password),
  expiry: Type.Optional(Expiry),
  metatitle: Type.Optional(MetaTitle),
  metadescription: Type.Optional(MetaDescription),
  campaign: Type.Optional(Id),
})

/**
 * Every field optional; left out or null: unchanged (ADR 013); `""` clears what can be cleared;
 * `campaign` 0 takes the link out of its campaign; a list given replaces the stored one.
 */
export const LinkUpdateBody = UpdateBody({
  url: Type.Optional(HttpUrl),
  ...sharedFields,
  domain: Type.Optional(Clearable(Type.Union([Type.String({ minLength: 1, maxLength: 300 }), PositiveId]), 'the main domain', { errorMessage: `${DOMAIN_RULE}, or empty for the main domain` })),
  password: Type.Optional(Clearable(Type.String({ minLength: 1, maxLength: 128 }), 'no password', { errorMessage: 'must be 1 to 128 characters, or empty to remove the password' })),
  expiry: Type.Optional(Clearable(Type.String({ pattern: TIMESTAMP_INPUT_PATTERN }), 'never expires', { errorMessage: `${EXPIRY_RULE}, or empty to remove it` })),
  metatitle: Type.Optional(Clearable(Type.String({ maxLength: 200 }), 'no title', { errorMessage: 'must be text of at most 200 characters' })),
  metadescription: Type.Optional(Clearable(Type.String({ maxLength: 500, ...MULTILINE }), 'no description', { errorMessage: 'must be text of at most 500 characters' })),
  campaign: Type.Optional(Type.Union([PositiveId, Type.Literal(0)], { description: '0: out of its campaign', errorMessage: 'must be a campaign id, or 0 to leave the campaign' })),
})

export type LinkCreateInput = Static<typeof LinkCreateBody>
/** Left out: unchanged; `""` clears a field; `campaign` 0 takes the link out of its campaign. */
export type LinkUpdateInput = Static<typeof LinkUpdateBody>

export const LinkListQuery = Type.Object({
  ...PageQuery.properties,
  order: Type.Optional(Type.Union([Type.Literal('date'), Type.Literal('clicks')], { errorMessage: 'must be date or clicks' })),
  q: Type.Optional(Type.String({ maxLength: 200, errorMessage: 'must be text of at most 200 characters' })),
  campaign: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'only the links of this campaign', errorMessage: 'must be a campaign id (a positive whole number)' })),
  channel: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'only the links in this channel', errorMessage: 'must be a channel id (a positive whole number)' })),
  domain: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: MAX_ID,
    description: 'only the links served on this branded domain (its id), or on the main domain with 0',
    errorMessage: 'must be a branded domain id, or 0 for the main domain',
  })),
})

const linkFields = {
  id: Type.Integer(),
  alias: Type.String(),
  shorturl: Type.String(),
  longurl: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  clicks: Type.Integer(),
  uniqueclicks: Type.Integer(),
  date: DateTime,
  domain: Type.Union([Type.String(), Type.Null()], { description: 'branded domain origin, or null for the main domain' }),
  campaign: Type.Union([Type.Integer(), Type.Null()]),
  pixels: Type.Array(Type.Integer()),
  type: Type.String({ description: 'direct, frame, splash, a splash page id, or overlay-<id>' }),
  expiry: Type.Union([DateTime, Type.Null()]),
  password: Type.Boolean({ description: 'true when visitors must enter a password' }),
}

export const LinkListEntry = Type.Object(linkFields)

export const LinkListResponse = listResponse('urls', LinkListEntry)

const Targeting = Type.Object({
  geo: Type.Array(Type.Object({ location: Type.String(), link: Type.String() })),
  device: Type.Array(Type.Object({ device: Type.String(), link: Type.String() })),
  language: Type.Array(Type.Object({ language: Type.String(), link: Type.String() })),
})

export const LinkDetailsResponse = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  details: Type.Object({ ...linkFields, targeting: Targeting }),
  data: QrStatistics,
})

export const LinkCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer(), shorturl: Type.String() })

/** Update answers the message and, since alias and domain may change, the link's short URL. */
export const LinkUpdatedResponse = Type.Object({ error: Type.Literal(0), message: Type.String(), id: Type.Integer(), shorturl: Type.String() })
