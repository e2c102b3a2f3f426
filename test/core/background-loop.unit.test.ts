import { describe, expect, it } from 'vitest'
import { backgroundLoop } from '../../src/core/background-loop.js'
import { pauseFor } from '../../src/core/pause.js'

describe('a background loop', () => {
  it('runs once however often it is started, and stop waits for the loop to end', async () => {
    let starts = 0
    let ended = false
    const background = backgroundLoop(async (signal) => {
      starts++
      while (!signal.aborted) await pauseFor(60_000, signal)
      ended = true
    })
    expect(await background.stop()).toBe(false)
    background.start()
    background.start()
    expect(starts).toBe(1)
    expect(await background.stop()).toBe(true)
    expect(ended).toBe(true)
    expect(await background.stop()).toBe(false)
    // Started again after a stop: a new signal, not the aborted one.
    ended = false
    background.start()
    expect(starts).toBe(2)
    expect(ended).toBe(false)
    expect(await background.stop()).toBe(true)
  })
})
