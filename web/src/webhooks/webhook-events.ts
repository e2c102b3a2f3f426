// The events a webhook can receive, grouped as the picker shows them (the server's list: its
// OpenAPI document types every name here).
import type { WebhookEvent } from './webhook-queries'

export interface EventGroup {
  label: string
  events: Array<{ type: WebhookEvent; label: string }>
}

const changes = (resource: 'link' | 'qr' | 'bio' | 'campaign' | 'channel') => [
  { type: `${resource}.created` as const, label: 'Created' },
  { type: `${resource}.updated` as const, label: 'Updated' },
  { type: `${resource}.deleted` as const, label: 'Deleted' },
]

export const EVENT_GROUPS: EventGroup[] = [
  { label: 'Short links', events: [...changes('link'), { type: 'link.clicked', label: 'Clicked: the recorded clicks, several per event' }] },
  { label: 'QR codes', events: [...changes('qr'), { type: 'qr.scanned', label: 'Scanned: the recorded scans, several per event' }] },
  { label: 'Bio pages', events: changes('bio') },
  { label: 'Campaigns', events: changes('campaign') },
  { label: 'Channels', events: changes('channel') },
  { label: 'Contact forms', events: [{ type: 'contact.submitted', label: 'A visitor sent a message' }] },
  {
    label: 'Members',
    events: [
      { type: 'member.added', label: 'Added: invited and joined, or added' },
      { type: 'member.updated', label: 'Role changed' },
      { type: 'member.removed', label: 'Removed, or left' },
    ],
  },
]

export const ALL_EVENTS: WebhookEvent[] = EVENT_GROUPS.flatMap((group) => group.events.map((event) => event.type))
