// No click lost across a graceful shutdown (STYLE §8): the real server process (dist/, `npm run
// build` first) is sent SIGTERM in the middle of a load of browser visits to one short link. Every
// 302 a visitor received must be one raw click, and the link's counter and aggregates must agree;
// a visit refused while closing (503, or a refused connection) must count nowhere.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/test-database.js'
import { freePort, startServer, type ServerProcess } from '../helpers/server-process.js'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const LOOPS = 16
/** SIGTERM goes out once this many visits were answered: the load is surely running by then. */
const ANSWERED_BEFORE_SIGTERM = 500
/** Only a safety net against a server that never goes away; a passing run takes a few seconds. */
const LOAD_DEADLINE_MS = 20_000

interface Tally {
  redirects: number
  /** Other statuses (503 while closing) and transport errors other than a refused connection. */
  others: Record<string, number>
}

/** One GET of the short link on a keep-alive connection; answers the status or the error code. */
function visit(agent: http.Agent, port: number, linkPath: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get({ agent, host: '127.0.0.1', port, path: linkPath, headers: { 'user-agent': CHROME } }, (response) => {
      // The status line reached the visitor: that is the answer counted, whatever happens to the body.
      const status = response.statusCode ?? 0
      response.on('error', () => undefined)
      response.on('close', () => resolve(status))
      response.resume()
    })
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

describe('graceful shutdown under load', () => {
  let folder: string | undefined
  let testDatabase: TestDatabase | undefined
  let reader: DatabaseHandle | undefined
  let server: ServerProcess | undefined

  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL')
    await reader?.close()
    await testDatabase?.destroy()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it('loses no click: raw clicks = 302 answers received = links.clicks = click_totals clicks', async () => {
    let databaseUrl: string
    if (testDialect === 'postgres') {
      testDatabase = await createTestDatabase()
      databaseUrl = testDatabase.url
    } else {
      folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-shutdown-'))
      databaseUrl = `file:${path.join(folder, 'linkwell.db')}`
    }
    const adminKey = randomBytes(32).toString('base64url')
    const port = await freePort()
    server = await startServer({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LINKWELL_BOOTSTRAP_API_KEY: adminKey,
      REDIS_URL: '',
    })
    const created = await fetch(`${server.url}/api/url/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/landing' }),
    })
    expect(created.status).toBe(201)
    const link = (await created.json()) as { id: number; shorturl: string }
    const linkPath = new URL(link.shorturl).pathname

    const agent = new http.Agent({ keepAlive: true, maxSockets: LOOPS })
    const tally: Tally = { redirects: 0, others: {} }
    let signalled: Promise<number | null> | undefined
    const deadline = Date.now() + LOAD_DEADLINE_MS
    // Each loop keeps visiting until the server no longer takes connections.
    const loop = async (): Promise<string> => {
      while (Date.now() < deadline) {
        const outcome = await visit(agent, port, linkPath)
        if (outcome === 'ECONNREFUSED') return 'refused'
        if (outcome === 302) tally.redirects += 1
        else tally.others[String(outcome)] = (tally.others[String(outcome)] ?? 0) + 1
        if (!signalled && tally.redirects >= ANSWERED_BEFORE_SIGTERM) signalled = server!.stop()
      }
      return 'still answering at the deadline'
    }
    const endings = await Promise.all(Array.from({ length: LOOPS }, loop))
    agent.destroy()
    expect(signalled, 'SIGTERM was sent during the load').toBeDefined()
    expect(await signalled, server.output()).toBe(0)
    expect(endings).toEqual(Array.from({ length: LOOPS }, () => 'refused'))
    expect(tally.redirects).toBeGreaterThan(ANSWERED_BEFORE_SIGTERM)

    const db = testDatabase ? testDatabase.db : (reader = openDatabase(databaseUrl)).db
    const raw = await db.selectFrom('clicks').select(['is_unique']).where('item_type', '=', 'link').where('item_id', '=', link.id).execute()
    const counters = await db.selectFrom('links').select(['clicks', 'unique_clicks']).where('id', '=', link.id).executeTakeFirstOrThrow()
    const total = await db.selectFrom('click_totals').select('clicks').where('item_type', '=', 'link').where('item_id', '=', link.id).where('dimension', '=', 'clicks').where('value', '=', '').executeTakeFirstOrThrow()
    const days = await db.selectFrom('click_days').select('clicks').where('item_type', '=', 'link').where('item_id', '=', link.id).where('dimension', '=', 'clicks').execute()
    const everything = await db.selectFrom('clicks').select('id').execute()

    const label = JSON.stringify(tally)
    expect(raw.length, label).toBe(tally.redirects)
    expect(counters.clicks, label).toBe(tally.redirects)
    expect(Number(total.clicks), label).toBe(tally.redirects)
    expect(days.reduce((sum, row) => sum + Number(row.clicks), 0), label).toBe(tally.redirects)
    expect(counters.unique_clicks).toBe(raw.filter((row) => row.is_unique === 1).length)
    // Nothing but these visits was recorded (the API calls and health checks are not clicks).
    expect(everything).toHaveLength(tally.redirects)
  })
})
