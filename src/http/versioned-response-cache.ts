// Answers of a list endpoint kept as the bytes sent, per account and query, together with the
// account's version of what the list shows (docs/adr/012-link-list-cache.md). An answer is reused
// only while the database reports the same version, so it is never stale, on any instance; a
// changed version recomputes. Bounded by bytes: least recently used answers go first.
import type { FastifyReply } from 'fastify'
import type { CacheCounts } from '../core/lru-cache.js'

export interface VersionedResponseCache {
  /**
   * Sends the answer kept for `key` when it was computed at `version`; else runs `compute`,
   * serialises its result with the route's response schema, keeps it and sends it.
   * `version` must be read before `compute` reads the data it stands for.
   */
  send(reply: FastifyReply, entry: { key: string; version: number }, compute: () => Promise<unknown>): Promise<FastifyReply>
  /** Bytes of the answers kept (for tests and the memory budget). */
  readonly bytes: number
  /** Answers sent as kept, and answers computed (metrics). */
  readonly counts: Readonly<CacheCounts>
}

interface KeptAnswer {
  version: number
  body: string
  bytes: number
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** A cache of at most `maxBytes` of answers (UTF-16 length × 2, roughly what V8 holds). */
export function createVersionedResponseCache(maxBytes: number): VersionedResponseCache {
  const answers = new Map<string, KeptAnswer>()
  let bytes = 0
  const counts: CacheCounts = { hits: 0, misses: 0 }

  function forget(key: string): void {
    const kept = answers.get(key)
    if (!kept) return
    answers.delete(key)
    bytes -= kept.bytes
  }

  return {
    async send(reply, { key, version }, compute) {
      const kept = answers.get(key)
      if (kept && kept.version === version) {
        // Most recently used last: a hit moves to the end.
        answers.delete(key)
        answers.set(key, kept)
        counts.hits += 1
        return reply.type(JSON_TYPE).send(kept.body)
      }
      counts.misses += 1
      const body = reply.serialize(await compute())
      // The routes' JSON serialisers answer text; anything else is sent as it is, not kept.
      if (typeof body !== 'string') return reply.type(JSON_TYPE).send(body)
      forget(key)
      const size = body.length * 2
      if (size <= maxBytes) {
        answers.set(key, { version, body, bytes: size })
        bytes += size
        while (bytes > maxBytes) forget(answers.keys().next().value!)
      }
      return reply.type(JSON_TYPE).send(body)
    },
    counts,
    get bytes() {
      return bytes
    },
  }
}
