// Request and response schemas of tags (issue 23): the field items take (`tags`), the filter lists
// take (`?tag=`), and the tag endpoints.
import { Type, type Static } from 'typebox'
import { Clearable, DateTime, listResponse, UpdateBody } from '../../core/schemas.js'
import { MAX_TAG_LENGTH, MAX_TAGS, TAG_NAME_RULE, TAGS_RULE } from './tag-names.js'

const TagName = Type.String({ minLength: 1, maxLength: MAX_TAG_LENGTH, errorMessage: TAG_NAME_RULE })

/** An item's tags: given, they replace the item's; `[]` removes them all. Made on first use. */
export const TagsInput = Type.Array(TagName, {
  maxItems: MAX_TAGS,
  errorMessage: TAGS_RULE,
  description: `the item's tags by name (made on first use, one per name whatever its case); given, they replace the item's tags, [] removes them`,
})

/** An item's tags as answers show them: names, by name. */
export const TagNames = Type.Array(Type.String(), { description: 'the item\'s tags by name' })

/** `?tag=a&tag=b`: only the items that carry every one of these tags (any case). */
export const TagFilter = Type.Union([TagName, Type.Array(TagName, { maxItems: MAX_TAGS })], {
  errorMessage: `must be a tag name of 1 to ${MAX_TAG_LENGTH} characters (repeat it for several: all must match)`,
  description: 'only the items that carry this tag; repeated, every one of them',
})

export const TagUpdateBody = UpdateBody({
  name: Type.Optional(TagName),
  color: Type.Optional(Clearable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }), 'the default color', { errorMessage: 'must be a color like #1e90ff, or empty for the default' })),
})

export type TagUpdateInput = Static<typeof TagUpdateBody>

export const TagEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  color: Type.Union([Type.String(), Type.Null()], { description: '#rrggbb, or null for the default' }),
  date: DateTime,
  links: Type.Integer({ description: 'links that carry it' }),
  qrs: Type.Integer({ description: 'QR codes that carry it' }),
  bios: Type.Integer({ description: 'bio pages that carry it' }),
})

export const TagListResponse = listResponse('tags', TagEntry)

export const TagUpdatedResponse = Type.Object({ error: Type.Literal(0), message: Type.String(), id: Type.Integer(), name: Type.String(), color: Type.Union([Type.String(), Type.Null()]) })
