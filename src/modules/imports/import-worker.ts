// The import worker (ADR 021): each served instance takes import jobs no worker holds (queued, or
// running with their lease ended, as a job of a stopped instance is) and runs them to their end,
// one at a time. The command line never runs it: it runs its own import in the foreground.
import type { ImportService } from './import.service.js'

export interface ImportWorkerOptions {
  /** Takes the jobs no worker holds and runs them. */
  imports: ImportService
  /** How often the jobs are asked for one to take when none was found. */
  pollMs?: number
  onError?: (error: unknown) => void
}

export function createImportWorker(options: ImportWorkerOptions) {
  const { imports } = options
  const pollMs = options.pollMs ?? 2_000
  let running: Promise<void> | null = null
  let stopped = true
  let wakeUp: (() => void) | null = null

  async function loop(): Promise<void> {
    while (!stopped) {
      let jobId: number | undefined
      try {
        jobId = await imports.claimJob()
        if (jobId !== undefined) await imports.runJob(jobId)
      } catch (error) {
        options.onError?.(error)
      }
      if (jobId === undefined && !stopped) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs)
          wakeUp = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wakeUp = null
      }
    }
  }

  return {
    start(): void {
      if (running) return
      stopped = false
      running = loop()
    },
    /** Asks at once instead of at the next poll (a job was just queued). */
    wake(): void {
      wakeUp?.()
    },
    /** Stops after the job in hand (its chunks are whole: what was not written is resumed later). */
    async stop(): Promise<void> {
      stopped = true
      wakeUp?.()
      await running
      running = null
    },
  }
}

export type ImportWorker = ReturnType<typeof createImportWorker>
