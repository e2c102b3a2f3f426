// A pino logger whose JSON lines a test reads back, parsed.
import { Writable } from 'node:stream'
import { pino, type Logger } from 'pino'

/** A logger at `level` and the lines it wrote so far. */
export function capturedLogger(level: string): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text))
      done()
    },
  })
  return { logger: pino({ level }, stream), lines }
}
