// How the ClickHouse store cuts a window's whole UTC days into its monthly, weekly and daily rollups
// (clickhouse-store.ts spansOf, layout 3, ADR 035): every day once, months whole calendar months,
// weeks Monday to Sunday, none of either starting before the first day retention surely kept.
import { describe, expect, it } from 'vitest'
import { spansOf } from '../../src/analytics/clickhouse-store.js'
import { DAY_MS } from '../../src/core/time.js'

const at = (text: string) => Date.parse(`${text}T00:00:00Z`)
const daysOf = (ranges: ReadonlyArray<readonly [number, number]>) => ranges.flatMap(([from, to]) => Array.from({ length: (to - from) / DAY_MS }, (_, index) => from + index * DAY_MS))

describe('spansOf', () => {
  it('covers each day of the window once, in whole months and Monday weeks, for every start, length and retention boundary', () => {
    // From 2026-01-25 (a Sunday), across month ends of 28, 30 and 31 days and a year's end.
    for (let first = 0; first < 45; first += 1) {
      for (const span of [1, 2, 6, 7, 8, 13, 14, 27, 28, 29, 30, 31, 32, 45, 59, 60, 61, 62, 89, 90, 91, 120, 365]) {
        for (const retained of [null, 0, 3, 17, 40]) {
          const start = at('2026-01-25') + first * DAY_MS
          const end = start + span * DAY_MS
          const coarseFrom = retained === null ? undefined : start + retained * DAY_MS
          const { months, weeks, days } = spansOf(start, end, coarseFrom)
          const label = `${new Date(start).toJSON()} + ${span} days, coarse from ${coarseFrom === undefined ? '-' : new Date(coarseFrom).toJSON()}`
          const covered = [...daysOf(months), ...daysOf(weeks), ...daysOf(days)].sort((a, b) => a - b)
          expect(covered, label).toEqual(daysOf([[start, end]]))
          for (const [from, to] of months) {
            expect(new Date(from).getUTCDate(), label).toBe(1)
            expect(new Date(to).getUTCDate(), label).toBe(1)
            if (coarseFrom !== undefined) expect(from, label).toBeGreaterThanOrEqual(coarseFrom)
          }
          for (const [from, to] of weeks) {
            expect(new Date(from).getUTCDay(), label).toBe(1)
            expect(new Date(to).getUTCDay(), label).toBe(1)
            if (coarseFrom !== undefined) expect(from, label).toBeGreaterThanOrEqual(coarseFrom)
          }
          // Few rows per link: on each side of the months at most 4 weeks and 12 days (13 days always hold a whole week).
          if (retained === null) {
            expect(daysOf(days).length, label).toBeLessThanOrEqual(24)
            expect(daysOf(weeks).length / 7, label).toBeLessThanOrEqual(8)
          }
        }
      }
    }
  })

  it('answers a 90-day window ending on 2026-06-30 in two months, four weeks and eight days', () => {
    const { months, weeks, days } = spansOf(at('2026-04-02'), at('2026-07-01'))
    expect(months).toEqual([[at('2026-05-01'), at('2026-07-01')]])
    expect(weeks).toEqual([[at('2026-04-06'), at('2026-04-27')]])
    expect(days).toEqual([[at('2026-04-02'), at('2026-04-06')], [at('2026-04-27'), at('2026-05-01')]])
  })
})
