// Request and response schemas of the short-link endpoints (decisions §6: Short links).
import { Type, type Static } from 'typebox'
import { QrStatistics } from '../qr-codes/qr-code.schemas.js'
import { COUNTRY_RULE, DEVICE_RULE, LANGUAGE_RULE } from './link-targeting.js'
import { MAX_UTM_LENGTH } from '../../core/utm.js'
import { CLICK_LIMIT_RULE, UTM_RULE, UTM_VALUE_RULE, VARIANTS_RULE, VARIANT_WEIGHT_RULE } from './link-options.js'
import { MAX_CLICK_LIMIT, MAX_META_DESCRIPTION_LENGTH, MAX_META_TITLE_LENGTH, MAX_PASSWORD_LENGTH, MAX_TARGETS, MAX_VARIANTS, MAX_VARIANT_WEIGHT, MIN_VARIANTS, TARGET_DEVICES } from '../../core/link-limits.js'
import { Alias, Clearable, DateTime, HttpUrl, Id, MAX_ID, PageQuery, PositiveId, listResponse, MULTILINE, UpdateBody } from '../../core/schemas.js'
import { TIMESTAMP_INPUT_PATTERN } from '../../core/time.js'
import { TagFilter, TagNames, TagsInput } from '../tags/tag.schemas.js'
import { LINK_HEALTH_STATES } from '../link-health/destination-probe.js'
import { HTTP_URL_PATTERN, MAX_URL_LENGTH } from '../../core/urls.js'

// Inside unions, branches carry no message of their own (PositiveId) so that the union's message is used.
const DOMAIN_RULE = 'must be one of your branded domains, as its address (https://go.example.com), its hostname (go.example.com) or its id'
const Password = Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH, errorMessage: `must be 1 to ${MAX_PASSWORD_LENGTH} characters` })
const EXPIRY_RULE = 'must be a date-time YYYY-MM-DD HH:MM:SS or a date YYYY-MM-DD (UTC)'
const Expiry = Type.String({ pattern: TIMESTAMP_INPUT_PATTERN, errorMessage: EXPIRY_RULE })
const LinkType = Type.Union(
  [Type.String({ pattern: '^(direct|frame|splash|overlay-[0-9]{1,16}|[0-9]{1,16})$' }), PositiveId],
  { errorMessage: 'must be direct, frame, splash, a splash page id or overlay-<id>' },
)
const MetaTitle = Type.String({ maxLength: MAX_META_TITLE_LENGTH, errorMessage: `must be text of at most ${MAX_META_TITLE_LENGTH} characters` })
const MetaDescription = Type.String({ maxLength: MAX_META_DESCRIPTION_LENGTH, ...MULTILINE, errorMessage: `must be text of at most ${MAX_META_DESCRIPTION_LENGTH} characters` })
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

const UtmValue = Type.String({ maxLength: MAX_UTM_LENGTH, errorMessage: UTM_VALUE_RULE })

/** UTM parameters as clients send them (links and templates): each optional, empty text means not set; on an update `{}` removes them all. */
export const UtmInput = Type.Object({
  source: Type.Optional(UtmValue),
  medium: Type.Optional(UtmValue),
  campaign: Type.Optional(UtmValue),
  term: Type.Optional(UtmValue),
  content: Type.Optional(UtmValue),
}, { errorMessage: UTM_RULE, description: 'merged into the destination\'s query as utm_source, utm_medium, … at every visit (a parameter of the same name is replaced)' })

/** UTM parameters as answers show them: only those set. */
export const UtmRecord = Type.Object({
  source: Type.Optional(Type.String()),
  medium: Type.Optional(Type.String()),
  campaign: Type.Optional(Type.String()),
  term: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
})

const ClickLimit = Type.Integer({
  minimum: 1,
  maximum: MAX_CLICK_LIMIT,
  errorMessage: CLICK_LIMIT_RULE,
  description: 'after this many recorded clicks (people, not bots) the link has expired: visitors go to `expiredurl`, or see the expired page',
})
const ExpiredUrl = Type.String({ maxLength: MAX_URL_LENGTH, pattern: HTTP_URL_PATTERN, errorMessage: 'must be an http or https URL', description: 'where visitors go once the link has expired, by date or by its click limit' })

const AppLink = (platform: string) => Type.String({
  maxLength: MAX_URL_LENGTH,
  pattern: HTTP_URL_PATTERN,
  errorMessage: 'must be an http or https URL',
  description: `where visitors on ${platform} go (an app's link or its store page), before any targeting rule`,
})
const OptionalUrl = Clearable(Type.String({ maxLength: MAX_URL_LENGTH, pattern: HTTP_URL_PATTERN }), 'removed', { errorMessage: 'must be an http or https URL, or empty to remove it' })

const Variants = Type.Array(
  Type.Object({
    url: HttpUrl,
    weight: Type.Integer({ minimum: 1, maximum: MAX_VARIANT_WEIGHT, errorMessage: VARIANT_WEIGHT_RULE }),
  }),
  {
    minItems: MIN_VARIANTS,
    maxItems: MAX_VARIANTS,
    errorMessage: VARIANTS_RULE,
    description: 'a split test: each visitor is sent to one of these instead of `url`, by weight, and keeps it all day',
  },
)

/** Conversion tracking (issue 39, ADR 034): each click's id appended to the destination. */
const TrackConversions = Type.Boolean({
  description: 'true: every click gets an unguessable id appended to the destination (the workspace\'s `clickidparameter`, `lw_id` by default) for leads and sales to be attributed to it; left out on create: the workspace\'s `trackconversions` default',
  errorMessage: 'must be true or false',
})

/** Query-string passthrough (ADR 034): whether visitors' own query parameters reach the destination. */
const Passthrough = Type.Boolean({
  description: 'whether the visitor\'s own query parameters reach the destination (merged: the link\'s UTM wins, keys already in the destination keep their place); left out: the workspace\'s `querypassthrough`',
  errorMessage: 'must be true or false',
})

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
  utm: Type.Optional(UtmInput),
  clicklimit: Type.Optional(ClickLimit),
  expiredurl: Type.Optional(ExpiredUrl),
  ios: Type.Optional(AppLink('iOS (iPhone, iPad)')),
  android: Type.Optional(AppLink('Android')),
  variants: Type.Optional(Variants),
  tags: Type.Optional(TagsInput),
  brokenurl: Type.Optional(Type.String({ maxLength: MAX_URL_LENGTH, pattern: HTTP_URL_PATTERN, errorMessage: 'must be an http or https URL', description: 'where visitors go while the link checker finds the destination broken (a printed QR code\'s fallback)' })),
  trackconversions: Type.Optional(TrackConversions),
  passthrough: Type.Optional(Passthrough),
})

/**
 * Every field optional; left out or null: unchanged (ADR 013); `""` clears what can be cleared;
 * `campaign` 0 takes the link out of its campaign; a list given replaces the stored one.
 */
export const LinkUpdateBody = UpdateBody({
  url: Type.Optional(HttpUrl),
  ...sharedFields,
  domain: Type.Optional(Clearable(Type.Union([Type.String({ minLength: 1, maxLength: 300 }), PositiveId]), 'the main domain', { errorMessage: `${DOMAIN_RULE}, or empty for the main domain` })),
  password: Type.Optional(Clearable(Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }), 'no password', { errorMessage: `must be 1 to ${MAX_PASSWORD_LENGTH} characters, or empty to remove the password` })),
  expiry: Type.Optional(Clearable(Type.String({ pattern: TIMESTAMP_INPUT_PATTERN }), 'never expires', { errorMessage: `${EXPIRY_RULE}, or empty to remove it` })),
  metatitle: Type.Optional(Clearable(Type.String({ maxLength: MAX_META_TITLE_LENGTH }), 'no title', { errorMessage: `must be text of at most ${MAX_META_TITLE_LENGTH} characters` })),
  metadescription: Type.Optional(Clearable(Type.String({ maxLength: MAX_META_DESCRIPTION_LENGTH, ...MULTILINE }), 'no description', { errorMessage: `must be text of at most ${MAX_META_DESCRIPTION_LENGTH} characters` })),
  campaign: Type.Optional(Type.Union([PositiveId, Type.Literal(0)], { description: '0: out of its campaign', errorMessage: 'must be a campaign id, or 0 to leave the campaign' })),
  utm: Type.Optional(UtmInput),
  clicklimit: Type.Optional(Clearable(Type.Integer({ minimum: 1, maximum: MAX_CLICK_LIMIT }), 'no click limit', { errorMessage: `${CLICK_LIMIT_RULE}, or empty to remove the limit` })),
  expiredurl: Type.Optional(OptionalUrl),
  ios: Type.Optional(OptionalUrl),
  android: Type.Optional(OptionalUrl),
  brokenurl: Type.Optional(OptionalUrl),
  trackconversions: Type.Optional(TrackConversions),
  passthrough: Type.Optional(Clearable(Type.Boolean(), 'as the workspace says', { errorMessage: 'must be true or false, or empty for the workspace\'s setting' })),
  variants: Type.Optional(Type.Union([Variants, Type.Array(Type.Object({ url: HttpUrl, weight: Type.Integer() }), { maxItems: 0 })], { errorMessage: `${VARIANTS_RULE}, or [] to end the split test` })),
  tags: Type.Optional(TagsInput),
})

/** Ends a split test: the variant at this position (from 0) becomes the link's only destination. */
export const LinkWinnerBody = Type.Object({
  variant: Type.Integer({ minimum: 0, maximum: MAX_VARIANTS - 1, errorMessage: `must be the position of a variant, from 0 to ${MAX_VARIANTS - 1}` }),
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
  tag: Type.Optional(TagFilter),
  health: Type.Optional(Type.Enum(LINK_HEALTH_STATES, {
    description: 'only the links whose destination the link checker last found in this state',
    errorMessage: `must be one of ${LINK_HEALTH_STATES.join(', ')}`,
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
  tags: TagNames,
  health: Type.Object({
    state: Type.Enum(LINK_HEALTH_STATES, { description: 'ok: answered 2xx; redirected: 2xx after redirects; broken: 4xx/5xx, no such host, refused; unknown: not checked yet or nothing to conclude' }),
    status: Type.Union([Type.Integer(), Type.Null()], { description: 'the HTTP status last answered; null when none came' }),
    checkedat: Type.Union([DateTime, Type.Null()], { description: 'when the destination was last checked; null before the first check' }),
  }, { description: 'what the link checker last found at the destination (every few hours)' }),
}

export const LinkListEntry = Type.Object(linkFields)

export const LinkListResponse = listResponse('urls', LinkListEntry)

const Targeting = Type.Object({
  geo: Type.Array(Type.Object({ location: Type.String(), link: Type.String() })),
  device: Type.Array(Type.Object({ device: Type.String(), link: Type.String() })),
  language: Type.Array(Type.Object({ language: Type.String(), link: Type.String() })),
})

/** The link's options (issue 23): null where not set. */
const optionFields = {
  utm: Type.Union([UtmRecord, Type.Null()]),
  clicklimit: Type.Union([Type.Integer(), Type.Null()], { description: 'after this many recorded clicks the link has expired' }),
  expiredurl: Type.Union([Type.String(), Type.Null()], { description: 'where visitors go once the link has expired' }),
  ios: Type.Union([Type.String(), Type.Null()], { description: 'where visitors on iOS go, before any targeting rule' }),
  android: Type.Union([Type.String(), Type.Null()], { description: 'where visitors on Android go, before any targeting rule' }),
  variants: Type.Union([
    Type.Array(Type.Object({ url: Type.String(), weight: Type.Integer(), clicks: Type.Integer({ description: 'recorded clicks of visitors sent to this variant' }) })),
    Type.Null(),
  ], { description: 'the split test\'s destinations, with the clicks each has had' }),
  brokenurl: Type.Union([Type.String(), Type.Null()], { description: 'where visitors go while the destination is broken' }),
  trackconversions: Type.Boolean({ description: 'whether each click gets a click id appended to the destination (ADR 034)' }),
  passthrough: Type.Union([Type.Boolean(), Type.Null()], { description: 'whether visitors\' query strings reach the destination; null: as the workspace says' }),
}

export const LinkDetailsResponse = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  details: Type.Object({
    ...linkFields, targeting: Targeting, ...optionFields,
    card: Type.Union([Type.String(), Type.Null()], { description: 'the public address of the link\'s social card (a 1200×630 JPEG shown to link-preview fetchers), or null' }),
  }),
  data: QrStatistics,
})

export const LinkCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer(), shorturl: Type.String() })

/** Update answers the message and, since alias and domain may change, the link's short URL. */
export const LinkUpdatedResponse = Type.Object({ error: Type.Literal(0), message: Type.String(), id: Type.Integer(), shorturl: Type.String() })

export const LinkCardResponse = Type.Object({
  error: Type.Literal(0),
  message: Type.String(),
  card: Type.String({ description: 'the public address of the card image (1200×630 JPEG)' }),
})
