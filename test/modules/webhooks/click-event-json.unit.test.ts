// The clicks of a `link.clicked` / `qr.scanned` event are written as JSON text in the batch's
// transaction without an object per click (event-outbox.ts `clicksJson`): the bytes must be those
// JSON.stringify writes for the clicks as events show them (toClickRecord), whatever the values.
import { describe, expect, it } from 'vitest'
import type { ClickInsertRow } from '../../../src/analytics/click-writer.js'
import { clicksJson, toClickRecord } from '../../../src/modules/webhooks/event-outbox.js'
import { eventBody, JsonText } from '../../../src/modules/webhooks/webhook-events.js'

const ODD_TEXTS = [null, '', 'US', 'news.example.org', 'say "hi"', 'back\\slash', 'tab\there', 'line\nbreak', '\u0000\u001f', 'ünï ✓ 漢字', '😀', '\ud800 lone', 'end \udfff', '</script>', '\u2028\u2029']

function row(index: number): ClickInsertRow {
  const text = (offset: number) => ODD_TEXTS[(index + offset) % ODD_TEXTS.length]!
  return {
    account_id: 3,
    item_type: index % 3 === 0 ? 'qr' : 'link',
    item_id: 1_000_000 + index,
    created_at: `2026-11-28 14:0${index % 10}:00`,
    referrer_host: text(1),
    user_agent: null,
    language: text(2),
    visitor_hash: 'never-sent',
    country: text(3),
    browser: text(4),
    os: text(5),
    device: text(6),
    is_unique: index % 2,
    click_id: null,
  }
}

describe('the clicks of an event as JSON text', () => {
  it('are byte for byte what JSON.stringify writes for the clicks as events show them', () => {
    for (const count of [0, 1, 2, 17, 500]) {
      const rows = Array.from({ length: count }, (_, index) => row(index))
      expect(clicksJson(rows)).toBe(JSON.stringify({ clicks: rows.map(toClickRecord) }))
    }
  })

  it('make the same event body as the clicks given as data', () => {
    const rows = Array.from({ length: 40 }, (_, index) => row(index))
    const at = new Date('2026-11-28T14:05:06.789Z')
    const asText = eventBody({ accountId: 3, type: 'link.clicked', data: new JsonText(clicksJson(rows)) }, 'evt_x"y', at)
    expect(asText).toBe(eventBody({ accountId: 3, type: 'link.clicked', data: { clicks: rows.map(toClickRecord) } }, 'evt_x"y', at))
    expect(JSON.parse(asText)).toEqual({ id: 'evt_x"y', type: 'link.clicked', timestamp: '2026-11-28T14:05:06.789Z', workspace: 3, data: { clicks: rows.map(toClickRecord) } })
  })
})
