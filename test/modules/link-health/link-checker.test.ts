// The broken-link checker (ADR 026) against local destinations: one answering 200, one 500, one
// redirecting. Its `runOnce()` is driven directly (no timed waits): what it records shows in the
// link API and in `GET /api/urls?health=` (kept list answers included), a link turning broken or
// recovering writes `link.broken` / `link.recovered` to the outbox, two checkers on one database
// look at each link once, and one host is looked at no more than once per gap.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { createLinkChecker, type LinkCheckerOptions } from '../../../src/modules/link-health/link-checker.js'
import { createLinkRepository } from '../../../src/modules/links/link.repository.js'
import { bindable } from '../../../src/db/transactions.js'

interface Destination {
  url: string
  /** Requests received per path (with its query). */
  requests: Map<string, number>
  /** When each request arrived (ms), with its path. */
  arrivals: Array<{ path: string; at: number }>
  /** What /flaky answers now. */
  flakyStatus: number
  close(): Promise<void>
}

async function startDestination(): Promise<Destination> {
  const state = { requests: new Map<string, number>(), arrivals: [] as Array<{ path: string; at: number }>, flakyStatus: 200 }
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/'
    state.requests.set(path, (state.requests.get(path) ?? 0) + 1)
    state.arrivals.push({ path, at: Date.now() })
    if (path.startsWith('/ok')) response.writeHead(200).end('fine')
    else if (path.startsWith('/fail')) response.writeHead(500).end('down')
    else if (path.startsWith('/redirect')) response.writeHead(302, { location: '/ok/after-redirect' }).end()
    else if (path.startsWith('/flaky')) response.writeHead(state.flakyStatus).end()
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}

describe('link checker', () => {
  const { context, api } = useTestApp({ env: { LINK_CHECK_ALLOW_PRIVATE: '1', WEBHOOK_ALLOW_PRIVATE: '1' } })
  let destination: Destination
  beforeAll(async () => {
    destination = await startDestination()
  })
  afterAll(() => destination.close())

  function checker(options: Partial<LinkCheckerOptions> = {}) {
    const { services } = context
    return createLinkChecker({
      links: bindable(createLinkRepository, context.database.db),
      outbox: services.outbox,
      invalidation: services.invalidation,
      allowPrivate: context.config.linkCheck.allowPrivate,
      intervalHours: context.config.linkCheck.intervalHours,
      hostGapMs: 0,
      ...options,
    })
  }

  async function addLink(path: string): Promise<number> {
    const created = await api('POST', '/api/url/add', { url: `${destination.url}${path}` })
    expect(created.statusCode).toBe(201)
    return created.data.id
  }

  async function healthOf(id: number) {
    const read = await api('GET', `/api/url/${id}`)
    expect(read.statusCode).toBe(200)
    return read.data.details.health
  }

  /** Checks until nothing is due. */
  async function checkAll(run = checker()): Promise<void> {
    while ((await run.runOnce()) > 0);
  }

  it('records ok, broken and redirected, shows them in the link and the list, and checks a link once per interval', async () => {
    const ok = await addLink('/ok')
    const fail = await addLink('/fail')
    const redirect = await addLink('/redirect')
    expect(await healthOf(ok)).toEqual({ state: 'unknown', status: null, checkedat: null })
    // A kept list answer before the check: the check must change the list version.
    const before = await api('GET', '/api/urls?health=broken')
    expect(before.data.data.urls).toEqual([])
    const listBefore = await api('GET', '/api/urls')
    expect(listBefore.data.data.urls.every((entry: { health: { state: string } }) => entry.health.state === 'unknown')).toBe(true)

    await checkAll()

    expect(await healthOf(ok)).toMatchObject({ state: 'ok', status: 200 })
    expect(await healthOf(fail)).toMatchObject({ state: 'broken', status: 500 })
    expect(await healthOf(redirect)).toMatchObject({ state: 'redirected', status: 200 })
    expect((await healthOf(ok)).checkedat).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)

    const broken = await api('GET', '/api/urls?health=broken')
    expect(broken.data.data.urls.map((entry: { id: number }) => entry.id)).toEqual([fail])
    expect(broken.data.data.urls[0].health).toMatchObject({ state: 'broken', status: 500 })
    const redirected = await api('GET', '/api/urls?health=redirected')
    expect(redirected.data.data.urls.map((entry: { id: number }) => entry.id)).toEqual([redirect])
    const list = await api('GET', '/api/urls')
    expect(list.data.data.urls.find((entry: { id: number }) => entry.id === ok).health).toMatchObject({ state: 'ok', status: 200 })

    // Not due again within the interval.
    const requestsSoFar = destination.arrivals.length
    expect(await checker().runOnce()).toBe(0)
    expect(destination.arrivals.length).toBe(requestsSoFar)
  })

  it('refuses a health filter that is not a state, naming the field', async () => {
    const answer = await api('GET', '/api/urls?health=dead')
    expect(answer.statusCode).toBe(400)
    expect(answer.data).toMatchObject({ error: 1, field: 'health' })
  })

  it('writes link.broken and link.recovered through the outbox when the state changes, and nothing when it does not', async () => {
    const webhook = await api('POST', '/api/webhook/add', { url: `${destination.url}/ok/hook`, events: ['link.broken', 'link.recovered'] })
    expect(webhook.statusCode).toBe(201)
    const { db } = context.database
    const flaky = await addLink('/flaky')
    const eventsOf = async () => (await db.selectFrom('outbox_events').select(['type', 'payload']).where('type', 'in', ['link.broken', 'link.recovered']).orderBy('id').execute())
      .filter((row) => JSON.parse(row.payload).data.id === flaky)
    const due = () => db.updateTable('links').set({ health_next_at: '' }).where('id', '=', flaky).execute()

    destination.flakyStatus = 200
    await checkAll()
    expect(await eventsOf()).toEqual([])

    destination.flakyStatus = 503
    await due()
    await checkAll()
    let events = await eventsOf()
    expect(events.map((row) => row.type)).toEqual(['link.broken'])
    expect(JSON.parse(events[0]!.payload)).toMatchObject({ type: 'link.broken', data: { id: flaky, url: `${destination.url}/flaky`, health: 'broken', status: 503 } })
    const deliveries = await db.selectFrom('webhook_deliveries').select('webhook_id').where('webhook_id', '=', webhook.data.id).execute()
    expect(deliveries.length).toBeGreaterThanOrEqual(1)

    // Still broken: no new event.
    await due()
    await checkAll()
    expect((await eventsOf()).length).toBe(1)

    destination.flakyStatus = 204
    await due()
    await checkAll()
    events = await eventsOf()
    expect(events.map((row) => row.type)).toEqual(['link.broken', 'link.recovered'])
    expect(await healthOf(flaky)).toMatchObject({ state: 'ok', status: 204 })
  })

  it('forgets the health of a destination that changed, and keeps it when the same one is sent again', async () => {
    const id = await addLink('/fail/edited')
    await checkAll()
    expect(await healthOf(id)).toMatchObject({ state: 'broken', status: 500 })
    expect((await api('PUT', `/api/url/${id}/update`, { url: `${destination.url}/fail/edited` })).statusCode).toBe(200)
    expect(await healthOf(id)).toMatchObject({ state: 'broken', status: 500 })
    expect((await api('PUT', `/api/url/${id}/update`, { url: `${destination.url}/ok/edited` })).statusCode).toBe(200)
    expect(await healthOf(id)).toEqual({ state: 'unknown', status: null, checkedat: null })
    await checkAll()
    expect(await healthOf(id)).toMatchObject({ state: 'ok', status: 200 })
  })

  it('sends visitors to brokenurl while the destination is broken, the cached link learning of each change', async () => {
    const created = await api('POST', '/api/url/add', { url: `${destination.url}/flaky/qr`, brokenurl: 'https://example.com/meanwhile' })
    expect(created.statusCode).toBe(201)
    const { id } = created.data
    const alias = (await api('GET', `/api/url/${id}`)).data.details.alias
    expect((await api('GET', `/api/url/${id}`)).data.details.brokenurl).toBe('https://example.com/meanwhile')
    const visitLocation = async () => (await context.app.inject({ method: 'HEAD', url: `/${alias}` })).headers.location
    const due = () => context.database.db.updateTable('links').set({ health_next_at: '' }).where('id', '=', id).execute()

    destination.flakyStatus = 200
    await checkAll()
    expect(await visitLocation()).toBe(`${destination.url}/flaky/qr`)
    destination.flakyStatus = 404
    await due()
    await checkAll()
    expect(await visitLocation()).toBe('https://example.com/meanwhile')
    destination.flakyStatus = 200
    await due()
    await checkAll()
    expect(await visitLocation()).toBe(`${destination.url}/flaky/qr`)

    // Cleared with "" on update; a bad address names the field.
    const bad = await api('PUT', `/api/url/${id}/update`, { brokenurl: 'ftp://nope' })
    expect(bad.statusCode).toBe(400)
    expect(bad.data).toMatchObject({ error: 1, field: 'brokenurl' })
    expect((await api('PUT', `/api/url/${id}/update`, { brokenurl: '' })).statusCode).toBe(200)
    expect((await api('GET', `/api/url/${id}`)).data.details.brokenurl).toBeNull()
  })

  it('shares the work between two checkers on one database: each link is looked at once', async () => {
    const paths = Array.from({ length: 12 }, (_, index) => `/ok/shared-${index}`)
    for (const path of paths) await addLink(path)
    const first = checker({ batchSize: 3 })
    const second = checker({ batchSize: 3 })
    await Promise.all([checkAll(first), checkAll(second)])
    for (const path of paths) expect(destination.requests.get(path), path).toBe(1)
  })

  it('looks at one host no more than once per gap', async () => {
    for (let index = 0; index < 3; index++) await addLink(`/ok/paced-${index}`)
    // A logical clock that only the checker's waits move: each look starts at a known time, whatever the machine's speed.
    let elapsed = 0
    const startedAt: number[] = []
    const arrivalsBefore = destination.arrivals.length
    const pacing = {
      elapsed: () => elapsed,
      wait: async (ms: number) => {
        elapsed += ms
        startedAt.push(elapsed)
      },
    }
    await checkAll(checker({ hostGapMs: 300, pacing }))
    const arrivals = destination.arrivals.slice(arrivalsBefore).filter((arrival) => arrival.path.startsWith('/ok/paced-'))
    expect(arrivals.length).toBe(3)
    // The first look needs no wait; each later one waited until 300 ms after the one before.
    expect(startedAt).toEqual([300, 600])
  })

  it('is off with LINK_CHECK=off and reads its settings from the environment', () => {
    expect(context.config.linkCheck).toEqual({ enabled: false, allowPrivate: true, intervalHours: 6, pollSeconds: 30 })
  })
})
