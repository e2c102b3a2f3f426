// The kept answers (src/http/versioned-response-cache.ts): reused only at the version they were
// computed at, recomputed otherwise, and held within their byte budget, least recently used first.
import type { FastifyReply } from 'fastify'
import { describe, expect, it } from 'vitest'
import { createVersionedResponseCache } from '../../src/http/versioned-response-cache.js'

/** The parts of a reply the cache uses: serialise as JSON, then send with a content type. */
function fakeReply() {
  const sent: { type?: string; body?: unknown } = {}
  const reply = {
    serialize: (payload: unknown) => JSON.stringify(payload),
    type(type: string) {
      sent.type = type
      return reply
    },
    send(body: unknown) {
      sent.body = body
      return reply
    },
  }
  return { reply: reply as unknown as FastifyReply, sent }
}

describe('the versioned response cache', () => {
  it('computes once per version and sends the same bytes when the version has not changed', async () => {
    const cache = createVersionedResponseCache(1_000_000)
    let computed = 0
    const answer = async (version: number) => {
      const { reply, sent } = fakeReply()
      await cache.send(reply, { key: 'a', version }, async () => ({ computed: ++computed, version }))
      return sent
    }
    expect(await answer(1)).toEqual({ type: 'application/json; charset=utf-8', body: '{"computed":1,"version":1}' })
    expect(await answer(1)).toEqual({ type: 'application/json; charset=utf-8', body: '{"computed":1,"version":1}' })
    expect(await answer(2)).toEqual({ type: 'application/json; charset=utf-8', body: '{"computed":2,"version":2}' })
    // A version never seen again (an older one) is recomputed, never served from another version.
    expect((await answer(1)).body).toBe('{"computed":3,"version":1}')
    expect(computed).toBe(3)
  })

  it('keeps answers apart by key', async () => {
    const cache = createVersionedResponseCache(1_000_000)
    for (const key of ['account 1', 'account 2']) {
      const { reply } = fakeReply()
      await cache.send(reply, { key, version: 0 }, async () => ({ key }))
    }
    const { reply, sent } = fakeReply()
    await cache.send(reply, { key: 'account 2', version: 0 }, async () => ({ key: 'recomputed' }))
    expect(sent.body).toBe('{"key":"account 2"}')
  })

  it('stays within its bytes, dropping the least recently used answers, and never keeps one larger than all of it', async () => {
    const body = { text: 'x'.repeat(90) }
    const size = JSON.stringify(body).length * 2
    const cache = createVersionedResponseCache(size * 3)
    const calls: string[] = []
    const ask = async (key: string, payload: unknown = body) => {
      const { reply } = fakeReply()
      await cache.send(reply, { key, version: 7 }, async () => {
        calls.push(key)
        return payload
      })
    }
    for (const key of ['a', 'b', 'c']) await ask(key)
    await ask('a') // kept: now the most recently used
    await ask('d') // drops b, the least recently used
    expect(cache.bytes).toBe(size * 3)
    await ask('a')
    await ask('c')
    await ask('b')
    expect(calls).toEqual(['a', 'b', 'c', 'd', 'b'])
    await ask('huge', { text: 'y'.repeat(size * 3) })
    await ask('huge', { text: 'y'.repeat(size * 3) })
    expect(calls.filter((key) => key === 'huge')).toHaveLength(2)
    expect(cache.bytes).toBeLessThanOrEqual(size * 3)
  })
})
