// `linkwell backup FILE` (issue 13): a consistent online copy of a SQLite database taken while
// the real server (dist/) keeps writing, which then serves as the database of a new server.
// On PostgreSQL the command points to pg_dump instead.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/database.js'
import { createTestDatabase, testDialect } from '../helpers/test-database.js'
import { freePort, startServer, type ServerProcess } from '../helpers/server-process.js'
import { runCli } from './cli-runner.js'

describe.skipIf(testDialect !== 'sqlite')('backup of a running SQLite server', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-backup-'))
  const servers: ServerProcess[] = []
  afterAll(async () => {
    for (const server of servers) await server.stop()
    fs.rmSync(folder, { recursive: true, force: true })
  })

  async function start(databaseUrl: string, adminKey: string) {
    const port = await freePort()
    const server = await startServer({ DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, LINKWELL_BOOTSTRAP_API_KEY: adminKey, REDIS_URL: '', RATE_LIMIT_PER_MINUTE: '1000000' })
    servers.push(server)
    return server
  }

  it('copies the database while writes go on, and the copy restores into a working server', async () => {
    const databaseUrl = `file:${path.join(folder, 'live.db')}`
    const adminKey = randomBytes(32).toString('base64url')
    const live = await start(databaseUrl, adminKey)
    const add = (name: string) =>
      fetch(`${live.url}/api/campaign/add`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) })
    for (let n = 0; n < 20; n += 1) expect((await add(`Before ${n}`)).status).toBe(201)

    // Writes keep arriving during the whole backup.
    let writing = true
    let during = 0
    const load = (async () => {
      while (writing) if ((await add(`During ${during}`)).status === 201) during += 1
    })()
    const backupFile = path.join(folder, 'copy.db')
    const result = await runCli(databaseUrl, ['backup', backupFile])
    writing = false
    await load
    expect(result.code, result.stderr).toBe(0)
    expect(during, 'writes went on during the backup').toBeGreaterThan(0)
    expect(result.json).toEqual({ file: backupFile, pages: expect.any(Number), integrity: 'ok' })

    // The copy is one instant of the database: everything from before, a prefix of what came during.
    const copy = openDatabase(`file:${backupFile}`)
    const names = (await copy.db.selectFrom('campaigns').select('name').orderBy('id').execute()).map((row) => row.name)
    await copy.close()
    expect(names.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, n) => `Before ${n}`))
    expect(names.slice(20)).toEqual(Array.from({ length: names.length - 20 }, (_, n) => `During ${n}`))

    // Restore: a server started on the copy serves it.
    const restored = await start(`file:${backupFile}`, adminKey)
    const listed = await fetch(`${restored.url}/api/campaigns?limit=100`, { headers: { authorization: `Bearer ${adminKey}` } })
    expect(listed.status).toBe(200)
    expect(((await listed.json()) as { data: { result: number } }).data.result).toBe(names.length)

    // Never over an existing file.
    const again = await runCli(databaseUrl, ['backup', backupFile])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('already exists')
    expect((await runCli(databaseUrl, ['backup'])).code).toBe(2)
  }, 120_000)
})

describe.skipIf(testDialect !== 'postgres')('backup on PostgreSQL', () => {
  it('points to pg_dump', async () => {
    const database = await createTestDatabase()
    try {
      const result = await runCli(database.url, ['backup', path.join(os.tmpdir(), `never-${process.pid}.db`)])
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('pg_dump')
    } finally {
      await database.destroy()
    }
  }, 60_000)
})
