// Crash and restart (issue 13): the real server (dist/, `npm run build` first) is killed with
// SIGKILL in the middle of API writes and redirects, then started again on the same database.
// Every write it acknowledged must be there; clicks may be lost, but no more than README and ADR
// 004 promise (what was queued: at most one batch waiting plus the batch being written), and
// every batch that did land is whole: raw clicks, the link's counter and the aggregates agree.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/test-database.js'
import { freePort, startServer, type ServerProcess } from '../helpers/server-process.js'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
/** The click recorder's batch size (ADR 004): the documented loss is at most two batches. */
const BATCH_SIZE = 500
const DOCUMENTED_LOSS_BOUND = 2 * BATCH_SIZE
const WRITERS = 4
const VISITORS = 8
/** SIGKILL once both kinds of load have surely been running for a while. */
const WRITES_BEFORE_KILL = 60
const REDIRECTS_BEFORE_KILL = 600

describe(`crash and restart (${testDialect})`, () => {
  let folder: string | undefined
  let testDatabase: TestDatabase | undefined
  let reader: DatabaseHandle | undefined
  const servers: ServerProcess[] = []

  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
    await reader?.close()
    await testDatabase?.destroy()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it('keeps every acknowledged write, and loses at most the queued clicks, in whole batches', async () => {
    let databaseUrl: string
    if (testDialect === 'postgres') {
      testDatabase = await createTestDatabase()
      databaseUrl = testDatabase.url
    } else {
      folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-crash-'))
      databaseUrl = `file:${path.join(folder, 'linkwell.db')}`
    }
    const adminKey = randomBytes(32).toString('base64url')
    const start = async () => {
      const port = await freePort()
      const server = await startServer({ DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, LINKWELL_BOOTSTRAP_API_KEY: adminKey, REDIS_URL: '', RATE_LIMIT_PER_MINUTE: '1000000' })
      servers.push(server)
      return server
    }
    const api = (server: ServerProcess, method: string, url: string, body?: unknown) =>
      fetch(`${server.url}${url}`, { method, headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })

    const first = await start()
    const created = await api(first, 'POST', '/api/url/add', { url: 'https://example.com/landing' })
    expect(created.status).toBe(201)
    const link = (await created.json()) as { id: number; shorturl: string }
    const linkPath = new URL(link.shorturl).pathname

    const acknowledged: { id: number; name: string }[] = []
    let redirects = 0
    let killed = false
    const exited = new Promise<NodeJS.Signals | null>((resolve) => first.child.once('exit', (_code, signal) => resolve(signal)))
    const killWhenLoaded = () => {
      if (!killed && acknowledged.length >= WRITES_BEFORE_KILL && redirects >= REDIRECTS_BEFORE_KILL) {
        killed = true
        first.child.kill('SIGKILL')
      }
    }
    // Each loop runs until the server is gone; an answer that never arrived acknowledges nothing.
    const writer = async (loop: number) => {
      for (let n = 0; ; n += 1) {
        const name = `Crash ${loop}-${n}`
        try {
          const response = await api(first, 'POST', '/api/campaign/add', { name })
          if (response.status === 201) acknowledged.push({ id: ((await response.json()) as { id: number }).id, name })
        } catch {
          return
        }
        killWhenLoaded()
      }
    }
    const visitor = async () => {
      for (;;) {
        try {
          const response = await fetch(`${first.url}${linkPath}`, { redirect: 'manual', headers: { 'user-agent': CHROME } })
          await response.arrayBuffer()
          if (response.status === 302) redirects += 1
        } catch {
          return
        }
        killWhenLoaded()
      }
    }
    await Promise.all([...Array.from({ length: WRITERS }, (_, loop) => writer(loop)), ...Array.from({ length: VISITORS }, visitor)])
    expect(await exited, first.output()).toBe('SIGKILL')

    const second = await start()
    const db = testDatabase ? testDatabase.db : (reader = openDatabase(databaseUrl)).db
    // Every acknowledged write survived, with what was acknowledged.
    const stored = await db.selectFrom('campaigns').select(['id', 'name']).execute()
    const storedNames = new Map(stored.map((row) => [row.id, row.name]))
    const missing = acknowledged.filter((write) => storedNames.get(write.id) !== write.name)
    expect(missing).toEqual([])

    // Clicks: none invented, at most the documented bound lost, and every batch whole.
    const raw = await db.selectFrom('clicks').select('id').where('item_type', '=', 'link').where('item_id', '=', link.id).execute()
    const counter = await db.selectFrom('links').select('clicks').where('id', '=', link.id).executeTakeFirstOrThrow()
    const total = await db.selectFrom('click_totals').select('clicks').where('item_type', '=', 'link').where('item_id', '=', link.id).where('dimension', '=', 'clicks').where('value', '=', '').executeTakeFirst()
    const lost = redirects - raw.length
    process.stdout.write(`crash (${testDialect}): ${acknowledged.length} writes acknowledged, all kept; ${redirects} redirects answered, ${raw.length} clicks kept, ${lost} lost (bound ${DOCUMENTED_LOSS_BOUND})\n`)
    expect(raw.length).toBeLessThanOrEqual(redirects)
    expect(lost).toBeLessThanOrEqual(DOCUMENTED_LOSS_BOUND)
    expect(counter.clicks).toBe(raw.length)
    expect(Number(total?.clicks ?? 0)).toBe(raw.length)

    // The restarted server serves the link and the API as before.
    expect((await fetch(`${second.url}${linkPath}`, { redirect: 'manual', headers: { 'user-agent': CHROME } })).status).toBe(302)
    expect((await api(second, 'POST', '/api/campaign/add', { name: 'After the crash' })).status).toBe(201)
    expect(await second.stop()).toBe(0)
  }, 120_000)
})
