// One way for a test to wait for something that happens elsewhere (a worker, a bus, a stream): read
// until the answer is accepted, and fail with the last answer read if it never is. The deadline is
// only a safety net against a hang, never what the test asserts.

export interface EventuallyOptions {
  /** How long to keep reading before failing (a hang guard, generous on a loaded machine). */
  timeoutMs?: number
  /** The pause between two reads. */
  intervalMs?: number
}

/** Reads `read()` until `accept` holds for its answer, and answers it; throws with the last answer when the deadline passes. */
export async function eventually<T>(read: () => T | Promise<T>, accept: (value: T) => boolean, options: EventuallyOptions = {}): Promise<T> {
  const { timeoutMs = 15_000, intervalMs = 50 } = options
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (accept(value)) return value
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value read: ${describe(value)}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
