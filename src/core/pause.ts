// The wait of a background loop between two rounds (webhook deliveries, the event stream, the
// link checker): a pause that ends early when the loop is stopped, or when something wakes it.

/**
 * Resolves after `ms`, or at once when `signal` aborts (at once if it already has); `onWake`
 * receives a function that ends the pause early (a loop told there is work).
 */
export function pauseFor(ms: number, signal: AbortSignal, onWake?: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
    onWake?.(done)
  })
}
