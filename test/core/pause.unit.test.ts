import { afterEach, describe, expect, it, vi } from 'vitest'
import { pauseFor } from '../../src/core/pause.js'

describe('pauseFor', () => {
  afterEach(() => vi.useRealTimers())

  const settled = async (promise: Promise<void>) => {
    let done = false
    void promise.then(() => (done = true))
    await vi.advanceTimersByTimeAsync(0)
    return done
  }

  it('ends after its time, not before', async () => {
    vi.useFakeTimers()
    const pause = pauseFor(1_000, new AbortController().signal)
    await vi.advanceTimersByTimeAsync(999)
    expect(await settled(pause)).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await settled(pause)).toBe(true)
  })

  it('ends at once when the loop is stopped, or was already', async () => {
    vi.useFakeTimers()
    const stopping = new AbortController()
    const pause = pauseFor(60_000, stopping.signal)
    stopping.abort()
    expect(await settled(pause)).toBe(true)
    expect(await settled(pauseFor(60_000, stopping.signal))).toBe(true)
  })

  it('ends at once when woken', async () => {
    vi.useFakeTimers()
    let wake: (() => void) | undefined
    const pause = pauseFor(60_000, new AbortController().signal, (given) => (wake = given))
    expect(await settled(pause)).toBe(false)
    wake!()
    expect(await settled(pause)).toBe(true)
  })
})
