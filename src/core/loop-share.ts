// Long work inside a request's process (an import, a bulk create) shares the event loop with the
// requests. SQLite answers synchronously, so such work holds the loop for as long as it runs between
// two awaits of its own. Each piece of long work takes a pacer and calls it between its steps (a row,
// a slice of a file, a chunk's transaction): once the work has held the loop for a slice (10 ms), it
// gives way. When requests came meanwhile it rests three times as long as it worked, so requests keep at
// least three quarters of the loop while they come; else it takes one turn of the loop (the requests that queued
// meanwhile are read in it) and goes on at full speed. A request now and then (a page polling the
// import's progress) makes it rest at a step or two, not for a second. Work that waited for real
// input or output since its last step (a PostgreSQL query) let the loop turn meanwhile: it held
// nothing, and its slice starts again.

import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'

/** How long a piece of work may hold the loop before it gives way. */
const SLICE_MS = 10
/** How long work rests per millisecond it held the loop, while requests come: requests keep three quarters of it. */
const REST_PER_WORK = 3
/** The longest rest at one step: a step that held the loop longer rests this long. */
const MAX_REST_MS = 250

/** Awaited between two steps of long work: gives way when the work has held the loop for a slice. */
export type Pacer = () => Promise<void> | undefined

export interface LoopShare {
  /** Called for every request the process receives (the front door). */
  noteRequest(): void
  /** A pacer for one piece of long work, its slice counted from now. */
  pacer(): Pacer
}

export interface LoopShareOptions {
  /** Milliseconds on a monotonic clock (tests move it). */
  now?: () => number
  rest?: (ms: number) => Promise<unknown>
  turn?: () => Promise<unknown>
  /** Calls `turned` at the event loop's next turn (setImmediate; tests turn it by hand). */
  onNextTurn?: (turned: () => void) => void
}

export function createLoopShare(options: LoopShareOptions = {}): LoopShare {
  const now = options.now ?? (() => performance.now())
  const rest = options.rest ?? sleep
  const turn = options.turn ?? nextTurn
  const onNextTurn = options.onNextTurn ?? ((turned: () => void) => void setImmediate(turned))
  // Requests received since some long work last gave way: one count for the process (two imports
  // at once each rest when requests came).
  let requests = 0
  return {
    noteRequest(): void {
      requests += 1
    },
    pacer(): Pacer {
      // When the work's slice started, and whether the loop has turned since (the work awaited
      // input or output, and requests were read meanwhile).
      let resumed = 0
      let turned = false
      let slice = 0
      const resume = () => {
        resumed = now()
        turned = false
        // Only this slice's watch counts: one armed for an earlier slice says nothing of this one.
        const watched = (slice += 1)
        onNextTurn(() => {
          if (slice === watched) turned = true
        })
      }
      const giveWay = async (worked: number): Promise<void> => {
        const came = requests
        requests = 0
        if (came > 0) await rest(Math.min(worked * REST_PER_WORK, MAX_REST_MS))
        else await turn()
        resume()
      }
      resume()
      return () => {
        if (turned) {
          resume()
          return undefined
        }
        const worked = now() - resumed
        return worked >= SLICE_MS ? giveWay(worked) : undefined
      }
    },
  }
}

/** The process's one event loop, shared by its requests and its long work. */
export const loopShare: LoopShare = createLoopShare()

