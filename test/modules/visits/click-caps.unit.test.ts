// A capped link's tally (src/modules/visits/click-caps.ts): what the database told plus what this
// instance let through and has not written yet.
import { describe, expect, it } from 'vitest'
import { createClickCaps } from '../../../src/modules/visits/click-caps.js'

describe('click caps', () => {
  it('lets exactly `limit` clicks through from the count the cached row had', () => {
    const caps = createClickCaps()
    const link = { id: 1, clicks: 2 }
    let through = 0
    for (let visit = 0; visit < 6; visit += 1) {
      if (caps.reached(link, 5)) continue
      caps.take(link)
      through += 1
    }
    expect(through).toBe(3)
  })

  it('replaces the estimate with what a written batch left, counting the clicks still in flight', () => {
    const caps = createClickCaps()
    const link = { id: 2, clicks: 0 }
    for (let visit = 0; visit < 3; visit += 1) caps.take(link)
    // Two of ours written, and another instance's four: the database now says 6.
    caps.written(new Map([[2, { clicks: 6, added: 2 }]]))
    expect(caps.reached(link, 7)).toBe(true)
    expect(caps.reached(link, 8)).toBe(false)
    // Counters of links nobody capped are ignored.
    caps.written(new Map([[99, { clicks: 1, added: 1 }]]))
    expect(caps.reached({ id: 99, clicks: 0 }, 1)).toBe(false)
  })

  it('gives back a click the recorder did not queue', () => {
    const caps = createClickCaps()
    const link = { id: 3, clicks: 0 }
    caps.take(link)
    expect(caps.reached(link, 1)).toBe(true)
    caps.giveBack(3)
    expect(caps.reached(link, 1)).toBe(false)
    caps.giveBack(3)
    expect(caps.reached(link, 1)).toBe(false)
  })

  it('learns of other instances\' clicks from a row read anew, only while nothing of its own is in flight', () => {
    const caps = createClickCaps()
    expect(caps.reached({ id: 4, clicks: 1 }, 5)).toBe(false)
    caps.take({ id: 4, clicks: 1 })
    // A row read while our click is in flight may or may not hold it: not trusted yet.
    expect(caps.reached({ id: 4, clicks: 3 }, 5)).toBe(false)
    caps.written(new Map([[4, { clicks: 2, added: 1 }]]))
    expect(caps.reached({ id: 4, clicks: 5 }, 5)).toBe(true)
    // A stale row never lowers the count.
    expect(caps.reached({ id: 4, clicks: 0 }, 5)).toBe(true)
  })

  it('never lets written clicks it did not take push the in-flight count below zero', () => {
    const caps = createClickCaps()
    const link = { id: 5, clicks: 0 }
    caps.take(link)
    caps.written(new Map([[5, { clicks: 4, added: 4 }]]))
    expect(caps.reached(link, 4)).toBe(true)
    expect(caps.reached(link, 5)).toBe(false)
  })
})
