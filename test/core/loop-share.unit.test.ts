import { describe, expect, it } from 'vitest'
import { createLoopShare } from '../../src/core/loop-share.js'

/** A loop share on a clock the test moves, recording how it gave way; `loopTurns()` is the event loop turning between two steps. */
function shareOnClock() {
  let clock = 0
  const ways: Array<['rest', number] | ['turn']> = []
  let waiting: Array<() => void> = []
  const share = createLoopShare({
    now: () => clock,
    rest: async (ms) => void ways.push(['rest', ms]),
    turn: async () => void ways.push(['turn']),
    onNextTurn: (turned) => void waiting.push(turned),
  })
  const loopTurns = () => {
    for (const turned of waiting) turned()
    waiting = []
  }
  return { share, ways, advance: (ms: number) => (clock += ms), loopTurns }
}

describe('loop share', () => {
  it('goes on without awaiting anything until the work has held the loop for a slice', async () => {
    const { share, ways, advance } = shareOnClock()
    const pace = share.pacer()
    advance(4)
    expect(pace()).toBeUndefined()
    advance(5)
    expect(pace()).toBeUndefined()
    advance(1)
    await pace()
    expect(ways).toEqual([['turn']])
  })

  it('takes one turn of the loop when no request came', async () => {
    const { share, ways, advance } = shareOnClock()
    const pace = share.pacer()
    advance(40)
    await pace()
    advance(40)
    await pace()
    expect(ways).toEqual([['turn'], ['turn']])
  })

  it('rests three times as long as the work held the loop while requests come', async () => {
    const { share, ways, advance } = shareOnClock()
    const pace = share.pacer()
    advance(5)
    share.noteRequest()
    advance(30)
    await pace()
    share.noteRequest()
    share.noteRequest()
    advance(12)
    await pace()
    expect(ways).toEqual([['rest', 105], ['rest', 36]])
  })

  it('rests only at a step that requests came before, and at most a quarter of a second', async () => {
    const { share, ways, advance } = shareOnClock()
    const pace = share.pacer()
    share.noteRequest()
    advance(600)
    await pace()
    advance(20)
    await pace()
    expect(ways).toEqual([['rest', 250], ['turn']])
  })

  it('starts the slice again after a step that let the loop turn (it waited for a query, not held the loop)', async () => {
    const { share, ways, advance, loopTurns } = shareOnClock()
    const pace = share.pacer()
    share.noteRequest()
    advance(8)
    expect(pace()).toBeUndefined()
    advance(30)
    loopTurns()
    expect(pace()).toBeUndefined()
    advance(9)
    expect(pace()).toBeUndefined()
    advance(3)
    await pace()
    expect(ways).toEqual([['rest', 36]])
  })

  it('counts a new piece of work from its start, not from the last work that gave way', async () => {
    const { share, ways, advance } = shareOnClock()
    share.pacer()
    advance(10_000)
    const pace = share.pacer()
    share.noteRequest()
    advance(3)
    expect(pace()).toBeUndefined()
    expect(ways).toEqual([])
  })
})
