// Request and response schemas of the campaign endpoints.
import { Type, type Static } from 'typebox'
import { Clearable, Id, listResponse, UpdateBody } from '../../core/schemas.js'

export const CAMPAIGN_SLUG_PATTERN = '^[A-Za-z0-9_-]{3,64}$'

export const CAMPAIGN_NAME_RULE = 'must be 2 to 100 characters'
const Name = Type.String({ minLength: 2, maxLength: 100, errorMessage: CAMPAIGN_NAME_RULE })
const Slug = Type.String({ pattern: CAMPAIGN_SLUG_PATTERN, errorMessage: 'must be 3 to 64 characters of letters, digits, _ and -' })
const Rotator = Type.Union([Type.String(), Type.Literal(false)], { description: 'rotator URL, or false without a slug' })

export const CampaignCreateBody = Type.Object({
  name: Type.Optional(Name),
  slug: Type.Optional(Slug),
  public: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
})

export const CampaignUpdateBody = UpdateBody({
  name: Name,
  slug: Type.Optional(Clearable(Slug, 'no rotator', { errorMessage: 'must be 3 to 64 characters of letters, digits, _ and -, or empty' })),
  public: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
})

export type CampaignCreateInput = Static<typeof CampaignCreateBody>
export type CampaignUpdateInput = Static<typeof CampaignUpdateBody>

export const CampaignListEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  public: Type.Boolean(),
  rotator: Rotator,
  list: Type.String(),
  views: Type.Integer({ description: 'visits of the rotator counted (bots and prefetches excluded)' }),
})

export const CampaignListResponse = listResponse('campaigns', CampaignListEntry)

/** The single read (beyond the spec, like `GET /api/bio/{id}`): the list entry under `data`. */
export const CampaignDetailsResponse = Type.Object({ error: Type.Literal(0), data: CampaignListEntry })

/** spec quirk: create and update carry the name under `domain`; `campaign` and `name` too (decisions §6). */
export const CampaignSavedResponse = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  domain: Type.String(),
  campaign: Type.String(),
  name: Type.String(),
  public: Type.Boolean(),
  rotator: Rotator,
  list: Type.String(),
  views: Type.Integer({ description: 'visits of the rotator counted (bots and prefetches excluded)' }),
})

export const CampaignAssignParams = Type.Object({ campaignid: Id, linkid: Id })
