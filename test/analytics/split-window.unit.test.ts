// How the columnar store cuts a window into the rollups' hours, days and weeks (columnar-store.ts
// splitWindow): the parts cover the window exactly once, and `wholeDays` covers every whole day,
// weeks included, whichever weekday the window starts and ends on.
import { describe, expect, it } from 'vitest'
import { splitWindow } from '../../src/analytics/columnar-store.js'
import { DAY_MS } from '../../src/core/time.js'

const HOUR_MS = 3_600_000

type Ranges = Array<[number, number]>
const length = (ranges: Ranges) => ranges.reduce((sum, [from, to]) => sum + (to - from), 0)
const at = (text: string) => Date.parse(`${text}Z`)

describe('splitWindow', () => {
  it('covers the window once, and its whole days (weeks included) with wholeDays, for every start and end weekday', () => {
    // 2026-11-30 is a Monday: windows from each weekday to each weekday, with hours at the edges or not.
    for (let first = 0; first < 7; first += 1) {
      for (let span = 1; span < 30; span += 1) {
        for (const [startHours, endHours] of [[0, 0], [5, 0], [0, 7], [5, 7]] as const) {
          const start = at('2026-11-30T00:00:00') + first * DAY_MS + startHours * HOUR_MS
          const end = at('2026-11-30T00:00:00') + (first + span) * DAY_MS + endHours * HOUR_MS
          const { hours, days, weeks, wholeDays } = splitWindow(start, end)
          const label = `${new Date(start).toJSON()} – ${new Date(end).toJSON()}`
          expect(length(hours) + length(days) + length(weeks), label).toBe(end - start)
          expect(length(wholeDays), label).toBe(length(days) + length(weeks))
          const firstMidnight = Math.ceil(start / DAY_MS) * DAY_MS
          const lastMidnight = Math.floor(end / DAY_MS) * DAY_MS
          expect(wholeDays, label).toEqual(firstMidnight < lastMidnight ? [[firstMidnight, lastMidnight]] : [])
        }
      }
    }
  })

  it('a window of whole weeks ending on a Monday: its days are all in wholeDays (a workspace\'s values were read from the first days only)', () => {
    const { days, weeks, wholeDays } = splitWindow(at('2026-11-07T00:00:00'), at('2026-12-07T00:00:00'))
    expect(weeks).toEqual([[at('2026-11-09T00:00:00'), at('2026-12-07T00:00:00')]])
    expect(days).toEqual([[at('2026-11-07T00:00:00'), at('2026-11-09T00:00:00')]])
    expect(wholeDays).toEqual([[at('2026-11-07T00:00:00'), at('2026-12-07T00:00:00')]])
  })
})
