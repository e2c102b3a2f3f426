// Channel rows to API records (spec: Channel, Channel item).
import type { ChannelRow } from '../../db/schema.js'
import type { DescribedChannelItem } from './channel-items.js'

export function toChannelRecord(channel: ChannelRow) {
  return {
    id: channel.id,
    name: channel.name,
    description: channel.description,
    color: channel.color,
    starred: channel.starred === 1,
  }
}

export function toChannelItemRecord({ item, description }: DescribedChannelItem) {
  return {
    type: item.item_type,
    id: item.item_id,
    title: description.title,
    preview: description.preview,
    link: description.link,
    // spec: item dates in channel listings are `YYYY-MM-DD`; the date the item joined the channel.
    date: item.created_at.slice(0, 10),
  }
}
