// The SDK (packages/client) against a real server listening on a port: typed calls that create and
// list links, the envelope's code and field as a LinkwellError, and 429 answers retried after
// their Retry-After (a real fixed-window counter with a one-second window) within a bounded count.
import { beforeAll, describe, expect, it } from 'vitest'
import { createLinkwellClient, isLinkwellError, LinkwellError, retryAfterMs, type LinkwellClientOptions } from '../../packages/client/src/index.js'
import type { RateLimiter } from '../../src/http/rate-limit.js'
import { createThrottleFactory } from '../../src/http/throttle.js'
import { createAccount, useTestApp } from '../helpers/test-app.js'

/** The server's address once it listens on a free loopback port. */
function listening(app: () => { listen(options: { port: number; host: string }): Promise<string> }): () => string {
  let address: string | undefined
  beforeAll(async () => {
    address = await app().listen({ port: 0, host: '127.0.0.1' })
  })
  return () => address!
}

/** A fetch that records the status of every answer, for checking what the client retried. */
function recordingFetch(statuses: number[]): LinkwellClientOptions['fetch'] {
  return async (request) => {
    const response = await fetch(request)
    statuses.push(response.status)
    return response
  }
}

describe('the SDK against a server', () => {
  const { context, owner } = useTestApp()
  const baseUrl = listening(() => context.app)

  it('creates a link and finds it in the list, every body typed', async () => {
    const linkwell = createLinkwellClient({ baseUrl: baseUrl(), apiKey: owner.apiKey })
    const created = await linkwell.POST('/api/url/add', { body: { url: 'https://shop.example/spring', custom: 'sdk-spring' } })
    expect(created.error).toBe(0)
    expect(created.shorturl).toMatch(/\/sdk-spring$/)
    const listed = await linkwell.GET('/api/urls', { params: { query: { limit: 50 } } })
    const found = listed.data.urls.find((link) => link.id === created.id)
    expect(found?.alias).toBe('sdk-spring')
    expect(found?.longurl).toBe('https://shop.example/spring')
    const details = await linkwell.GET('/api/url/{id}', { params: { path: { id: created.id } } })
    expect(details.details.shorturl).toBe(created.shorturl)
  })

  it('throws the envelope as a LinkwellError with its code, message and field', async () => {
    const linkwell = createLinkwellClient({ baseUrl: baseUrl(), apiKey: owner.apiKey })
    const refused = await linkwell.POST('/api/url/add', { body: { url: 'https://shop.example/a', custom: 'x y' } }).catch((error: unknown) => error)
    expect(isLinkwellError(refused)).toBe(true)
    const error = refused as LinkwellError
    expect(error.status).toBe(400)
    expect(error.code).toBe('validation_failed')
    expect(error.field).toBe('custom')
    expect(error.message).toMatch(/custom/)

    const missing = await linkwell.GET('/api/url/{id}', { params: { path: { id: 99_999_999 } } }).catch((caught: unknown) => caught)
    expect(missing).toMatchObject({ status: 404, code: 'not_found', field: undefined })

    const stranger = createLinkwellClient({ baseUrl: baseUrl(), apiKey: 'lw_not-a-key-of-this-server' })
    await expect(stranger.GET('/api/urls')).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' })
  })

  it('answers network_error when nothing listens', async () => {
    const linkwell = createLinkwellClient({ baseUrl: 'http://127.0.0.1:9', apiKey: owner.apiKey })
    await expect(linkwell.GET('/api/urls')).rejects.toMatchObject({ status: 0, code: 'network_error' })
  })
})

/** The API's rate limiter with a one-second window (the server's is a minute): two calls a second per key. */
function twoPerSecond(): RateLimiter {
  const counter = createThrottleFactory().counter({ name: 'sdk-test', points: 2, windowSeconds: 1 })
  return {
    async consume(key, limit) {
      const state = await counter.consume(key)
      return {
        allowed: state.allowed,
        limit,
        remaining: Math.max(2 - state.consumed, 0),
        resetAt: Math.ceil((Date.now() + state.msBeforeReset) / 1000),
        retryAfter: Math.max(Math.ceil(state.msBeforeReset / 1000), 1),
      }
    },
  }
}

describe('the SDK under a rate limit', () => {
  const { context, owner } = useTestApp(() => ({ rateLimiter: twoPerSecond() }))
  const baseUrl = listening(() => context.app)

  it('waits for Retry-After and retries a 429, the request\'s body sent again', async () => {
    const statuses: number[] = []
    const linkwell = createLinkwellClient({ baseUrl: baseUrl(), apiKey: owner.apiKey, fetch: recordingFetch(statuses) })
    const aliases: string[] = []
    for (const index of [1, 2, 3]) {
      aliases.push((await linkwell.POST('/api/url/add', { body: { url: `https://shop.example/${index}`, custom: `sdk-limit-${index}` } })).shorturl)
    }
    // The third call was refused once (429 with Retry-After: 1), then went through after the wait.
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1)
    // Retried at once, the third call would be refused again until its retries ran out and threw.
    expect(statuses.at(-1)).toBe(201)
    expect(aliases.map((address) => address.split('/').pop())).toEqual(['sdk-limit-1', 'sdk-limit-2', 'sdk-limit-3'])
  })

  it('throws rate_limited with the wait once its retries are spent, and never waits longer than told', async () => {
    // A workspace of its own: its bucket is fresh, whatever the test before spent of the owner's.
    const { apiKey } = await createAccount(context)
    const statuses: number[] = []
    const noRetries = createLinkwellClient({ baseUrl: baseUrl(), apiKey, retries: 0, fetch: recordingFetch(statuses) })
    await noRetries.GET('/api/urls')
    await noRetries.GET('/api/urls')
    const refused = await noRetries.GET('/api/urls').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(LinkwellError)
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' })
    expect((refused as LinkwellError).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(statuses).toEqual([200, 200, 429])

    // Told to wait a second, more than it may: it answers the 429 without retrying (one more 429 recorded, no second).
    const impatient = createLinkwellClient({ baseUrl: baseUrl(), apiKey, maxRetryDelayMs: 100, fetch: recordingFetch(statuses) })
    await expect(impatient.GET('/api/urls')).rejects.toMatchObject({ status: 429 })
    expect(statuses).toEqual([200, 200, 429, 429])
  })
})

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('3')).toBe(3000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000)
    expect(retryAfterMs(new Date(1_000).toUTCString(), 4_000)).toBe(0)
    expect(retryAfterMs('soon')).toBeUndefined()
    expect(retryAfterMs(null)).toBeUndefined()
  })
})
