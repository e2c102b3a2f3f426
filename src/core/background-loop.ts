// Start and stop of a background loop (webhook deliveries, the event stream, the link checker):
// the loop runs until its signal aborts; stopping aborts it and waits for it to end.

/** What every worker that takes rows with a lease is tuned by (webhook deliveries, the event stream). */
export interface LeasedWorkerOptions {
  /** The clock leases and due times are read against (tests move it). */
  now?: () => Date
  /** How often the worker asks for due rows when it found none. */
  pollMs?: number
  /** How long a taken row stays with its worker before another may take it. */
  leaseMs?: number
  /** Told of a failure the worker goes on after. */
  onError?: (error: unknown) => void
}

export interface BackgroundLoop {
  /** Starts the loop unless it runs already. */
  start(): void
  /** Aborts the loop's signal and waits for it to end; answers whether it was running. */
  stop(): Promise<boolean>
}

export function backgroundLoop(loop: (signal: AbortSignal) => Promise<void>): BackgroundLoop {
  let running: Promise<void> | null = null
  let stopping = new AbortController()
  return {
    start(): void {
      if (running) return
      stopping = new AbortController()
      running = loop(stopping.signal)
    },
    async stop(): Promise<boolean> {
      if (!running) return false
      stopping.abort()
      await running
      running = null
      return true
    },
  }
}
