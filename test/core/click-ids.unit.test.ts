// Click ids (core/click-ids.ts): 32 hex digits, later ones sorting later (the index that finds a
// click by its id grows at its end), 80 random bits each (no two alike, no digit fixed).
import { describe, expect, it } from 'vitest'
import { isClickIdShape, newClickId } from '../../src/core/click-ids.js'

describe('click ids', () => {
  it('are shaped as the tracking script and API expect, and sort by the time they were made', () => {
    const times = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, Date.UTC(2026, 11, 7, 5), Date.UTC(2099, 0, 1)]
    const ids = times.map((time) => newClickId(time))
    for (const id of ids) expect(isClickIdShape(id), id).toBe(true)
    expect([...ids].sort()).toEqual(ids)
    expect(ids.map((id) => parseInt(id.slice(0, 12), 16))).toEqual(times)
  })

  it('draw 80 random bits: ids of one millisecond all differ, and every random digit takes every value', () => {
    const ids = Array.from({ length: 20_000 }, () => newClickId(Date.UTC(2026, 11, 7)))
    expect(new Set(ids).size).toBe(ids.length)
    for (let position = 12; position < 32; position += 1) {
      expect(new Set(ids.map((id) => id[position])).size, `digit ${position}`).toBe(16)
    }
  })
})
