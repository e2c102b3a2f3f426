// Request and response schemas of the pixel endpoints (spec: Pixels; decisions §6).
import { Type } from 'typebox'
import { PIXEL_TYPES } from './pixel-tags.js'
import { DateTime, listResponse, UpdateBody } from '../../core/schemas.js'

export const PIXEL_NAME_RULE = 'must be 1 to 100 characters'

const PixelTypeSchema = Type.Enum(PIXEL_TYPES, { errorMessage: `must be one of ${PIXEL_TYPES.join(', ')}` })
const Name = Type.String({ minLength: 1, maxLength: 100, errorMessage: PIXEL_NAME_RULE })
// The provider's form is checked by pixel-tags.ts, which knows the type.
const Tag = Type.String({ minLength: 1, maxLength: 100, errorMessage: 'must be the pixel id given by the provider' })

export const PixelCreateBody = Type.Object({
  type: PixelTypeSchema,
  name: Name,
  tag: Tag,
})

/** The type is fixed at creation; a new tag is checked against the stored type. */
export const PixelUpdateBody = UpdateBody({
  name: Type.Optional(Name),
  tag: Type.Optional(Tag),
})

const pixelFields = {
  id: Type.Integer(),
  type: Type.String(),
  name: Type.String(),
  tag: Type.String(),
  date: DateTime,
}

export const PixelListEntry = Type.Object(pixelFields)

export const PixelListResponse = listResponse('pixels', PixelListEntry)

/** decisions §6: create answers `{error:0, id, type, name, tag, date}`. */
export const PixelCreatedResponse = Type.Object({ error: Type.Literal(0), ...pixelFields })

export type PixelCreateInput = Type.Static<typeof PixelCreateBody>
export type PixelUpdateInput = Type.Static<typeof PixelUpdateBody>

export const PixelProvider = Type.Object({
  type: Type.Enum(PIXEL_TYPES),
  label: Type.String(),
  example: Type.String({ description: 'a tag of the right form' }),
  expected: Type.String({ description: 'the rule a refused tag is told: `must be <expected>`' }),
  pattern: Type.String({ description: 'JavaScript regular expression source; with `flags`, true exactly for accepted (trimmed) tags' }),
  flags: Type.String({ description: '`i` where the server brings the tag into the provider’s letter case' }),
})

export const PixelProvidersResponse = Type.Object({ error: Type.Literal(0), providers: Type.Array(PixelProvider) })
