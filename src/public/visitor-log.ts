// What visitors' answers log at LOG_LEVEL=info (docs/adr/014-what-a-visit-logs.md): no line per
// redirect or page, but one line a minute saying how many answers of each kind went out, when
// any did. Counting costs an increment; a line per redirect would cost more than the redirect
// itself at the rates a short link sees. Failures are logged one by one as always, and at debug
// and trace every request has its line (Fastify's own, with the short path closed).
import type { FastifyBaseLogger } from 'fastify'

/** Answers by kind, named by what a visitor got. */
export interface VisitorAnswerCounts {
  /** 3xx: short links, rotators, QR scans, branded roots. */
  redirects: number
  /** 2xx: link pages (password, splash, frame, pixels), bio pages, QR images, list pages. */
  pages: number
  /** 404 and 410: unknown addresses and expired links. */
  notFound: number
  /** Other 4xx: a wrong password, a refused form, too many attempts. */
  refused: number
  /** 5xx. */
  failed: number
}

export interface VisitorLog {
  /** Counts one answer by its status. */
  answered(status: number): void
  /** Counts one redirect (the short path knows what it sent). */
  redirected(): void
  /** Writes the line for what is counted (if anything) and starts counting again. */
  flush(): void
  /** Flushes and stops the timer. */
  close(): void
  /** Every answer counted since start, by kind (metrics). */
  totals(): VisitorAnswerCounts
}

const EMPTY: VisitorAnswerCounts = Object.freeze({ redirects: 0, pages: 0, notFound: 0, refused: 0, failed: 0 })

export function createVisitorLog(logger: Pick<FastifyBaseLogger, 'info'>, intervalMs = 60_000): VisitorLog {
  let counts: VisitorAnswerCounts = { ...EMPTY }
  // What earlier lines counted: with the current minute's counts, every answer since start.
  const flushed: VisitorAnswerCounts = { ...EMPTY }
  let since = Date.now()
  const kinds = Object.keys(EMPTY) as Array<keyof VisitorAnswerCounts>

  function flush(): void {
    const total = counts.redirects + counts.pages + counts.notFound + counts.refused + counts.failed
    const now = Date.now()
    if (total > 0) logger.info({ visitorAnswers: counts, seconds: Math.round((now - since) / 1000) }, 'visitor answers')
    for (const kind of kinds) flushed[kind] += counts[kind]
    counts = { ...EMPTY }
    since = now
  }

  const timer = setInterval(flush, intervalMs)
  // The line is a summary: it never keeps the process alive.
  timer.unref()

  return {
    answered(status) {
      if (status < 300) counts.pages += 1
      else if (status < 400) counts.redirects += 1
      else if (status === 404 || status === 410) counts.notFound += 1
      else if (status < 500) counts.refused += 1
      else counts.failed += 1
    },
    redirected() {
      counts.redirects += 1
    },
    flush,
    close() {
      clearInterval(timer)
      flush()
    },
    totals() {
      return Object.fromEntries(kinds.map((kind) => [kind, flushed[kind] + counts[kind]])) as unknown as VisitorAnswerCounts
    },
  }
}
