// Request and response schemas of the channel endpoints (spec: Channels; decisions §6).
import { Type, type Static } from 'typebox'
import { CHANNEL_ITEM_TYPES } from './channel-items.js'
import { Clearable, HexColor, Id, listResponse, MULTILINE, UpdateBody } from '../../core/schemas.js'

export const CHANNEL_NAME_RULE = 'must be 2 to 100 characters'
const Name = Type.String({ minLength: 2, maxLength: 100, errorMessage: CHANNEL_NAME_RULE })
const Description = Type.String({ maxLength: 500, ...MULTILINE, errorMessage: 'must be text of at most 500 characters' })
const Color = HexColor
const Starred = Type.Boolean({ errorMessage: 'must be true or false' })

export const ChannelCreateBody = Type.Object({
  name: Name,
  description: Type.Optional(Description),
  color: Type.Optional(Color),
  starred: Type.Optional(Starred),
})

export const ChannelUpdateBody = UpdateBody({
  name: Type.Optional(Name),
  description: Type.Optional(Clearable(Description, 'no description')),
  color: Type.Optional(Color),
  starred: Type.Optional(Starred),
})

export type ChannelCreateInput = Static<typeof ChannelCreateBody>
/** Every field optional: what an update may change. */
export type ChannelInput = Static<typeof ChannelUpdateBody>

const channelFields = {
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  color: Type.String(),
  starred: Type.Boolean(),
}

export const ChannelListEntry = Type.Object(channelFields)

export const ChannelListResponse = listResponse('channels', ChannelListEntry)

/** The single read (beyond the spec; `GET /api/channel/{id}` is the spec's item list): under `data`. */
export const ChannelDetailsResponse = Type.Object({ error: Type.Literal(0), data: ChannelListEntry })

export const ChannelCreatedResponse = Type.Object({ error: Type.Literal(0), ...channelFields })

/** decisions §6: update answers the spec's message and the channel's fields. */
export const ChannelUpdatedResponse = Type.Object({ error: Type.Literal(0), message: Type.String(), ...channelFields })

export const ChannelItemEntry = Type.Object({
  type: Type.String(),
  id: Type.Integer(),
  title: Type.String(),
  preview: Type.String(),
  link: Type.String(),
  date: Type.String({ description: 'assignment date, `YYYY-MM-DD`' }),
})

export const ChannelItemListResponse = listResponse('items', ChannelItemEntry)

export const ChannelAssignParams = Type.Object({
  channelid: Id,
  type: Type.Enum(CHANNEL_ITEM_TYPES, { errorMessage: `must be one of ${CHANNEL_ITEM_TYPES.join(', ')}` }),
  itemid: Id,
})
