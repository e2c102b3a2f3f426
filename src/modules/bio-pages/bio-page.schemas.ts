// Request and response schemas of the bio page endpoints (decisions §6: Bio pages).
import { Type } from 'typebox'
import { Alias, Clearable, DateTime, HttpUrl, MULTILINE, PageQuery, UpdateBody, listResponse } from '../../core/schemas.js'
import { TagFilter, TagNames, TagsInput } from '../tags/tag.schemas.js'
import { MAX_URL_LENGTH } from '../../core/urls.js'

export const BIO_NAME_RULE = 'must be 2 to 100 characters'
export const BIO_BLOCK_TITLE_RULE = 'must be 1 to 100 characters'
export const BIO_URL_RULE = 'must be an http or https URL'
export const MAX_BIO_BLOCKS = 100

const Name = Type.String({ minLength: 2, maxLength: 100, errorMessage: BIO_NAME_RULE })
const Description = Clearable(Type.String({ maxLength: 500, ...MULTILINE, errorMessage: 'must be text of at most 500 characters' }), 'no description')
const Avatar = Clearable(HttpUrl, 'no avatar', { errorMessage: 'must be an http or https URL, or empty' })

const Block = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 100, errorMessage: BIO_BLOCK_TITLE_RULE }),
    url: HttpUrl,
  },
  { errorMessage: 'must be an object with a title and a url' },
)

const Blocks = Type.Array(Block, { maxItems: MAX_BIO_BLOCKS, errorMessage: `must be a list of at most ${MAX_BIO_BLOCKS} blocks` })

export const BioPageCreateBody = Type.Object({
  name: Name,
  alias: Type.Optional(Alias),
  description: Type.Optional(Description),
  avatar: Type.Optional(Avatar),
  blocks: Type.Optional(Blocks),
  tags: Type.Optional(TagsInput),
})

/** Every field optional; `blocks` replaces the whole list. */
export const BioPageUpdateBody = UpdateBody({
  name: Type.Optional(Name),
  alias: Type.Optional(Alias),
  description: Type.Optional(Description),
  avatar: Type.Optional(Avatar),
  blocks: Type.Optional(Blocks),
  tags: Type.Optional(TagsInput),
})

/** `?tag=a&tag=b`: only the pages that carry every one of these tags. */
export const BioPageListQuery = Type.Object({ ...PageQuery.properties, tag: Type.Optional(TagFilter) })

export const BioPageListEntry = Type.Object({
  id: Type.Integer(),
  alias: Type.String(),
  name: Type.String(),
  url: Type.String(),
  clicks: Type.Integer({ description: 'visits of the public page, all time' }),
  date: DateTime,
  tags: TagNames,
})

export const BioPageListResponse = listResponse('bio', BioPageListEntry)

export const BioPageDetailsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    id: Type.Integer(),
    alias: Type.String(),
    name: Type.String(),
    description: Type.String(),
    avatar: Type.Union([Type.String(), Type.Null()]),
    url: Type.String(),
    blocks: Type.Array(Type.Object({ title: Type.String(), url: Type.String() })),
    date: DateTime,
    updated: DateTime,
    tags: TagNames,
  }),
})

export const BioPageCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer(), url: Type.String() })

export type BioPageCreateInput = Type.Static<typeof BioPageCreateBody>
export type BioPageUpdateInput = Type.Static<typeof BioPageUpdateBody>

/**
 * An unsaved draft, as the editor holds it while someone types: only lengths are checked. What the
 * page could not show (a block without a title, a URL that is not http(s)) is left out of the preview.
 */
export const BioPagePreviewBody = Type.Object({
  name: Type.String({ maxLength: 100, errorMessage: 'must be at most 100 characters' }),
  alias: Type.Optional(Type.String({ maxLength: 64, errorMessage: 'must be at most 64 characters' })),
  description: Type.Optional(Type.String({ maxLength: 500, ...MULTILINE, errorMessage: 'must be text of at most 500 characters' })),
  avatar: Type.Optional(Type.String({ maxLength: MAX_URL_LENGTH, errorMessage: `must be at most ${MAX_URL_LENGTH} characters` })),
  blocks: Type.Optional(Type.Array(
    Type.Object({
      title: Type.String({ maxLength: 100, errorMessage: 'must be at most 100 characters' }),
      url: Type.String({ maxLength: MAX_URL_LENGTH, errorMessage: `must be at most ${MAX_URL_LENGTH} characters` }),
    }, { errorMessage: 'must be an object with a title and a url' }),
    { maxItems: MAX_BIO_BLOCKS, errorMessage: `must be a list of at most ${MAX_BIO_BLOCKS} blocks` },
  )),
})

/** The preview's answer: an HTML document, like the splash page and overlay previews. */
export type BioPagePreviewInput = Type.Static<typeof BioPagePreviewBody>
