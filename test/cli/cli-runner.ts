// Runs the `linkwell` command as a child process against a database the test can also open, and
// builds the HTTP app on that same database to check what the command created.
import { execFile } from 'node:child_process'
import { vi } from 'vitest'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { App } from '../../src/http/app-instance.js'
import { loadConfig } from '../../src/config.js'
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { createRateLimiter } from '../../src/http/rate-limit.js'
import { buildAppOn } from '../helpers/test-app.js'
import { createTestDatabase, testDialect } from '../helpers/test-database.js'

export const CLI_ENTRY = path.resolve('src/cli.ts')

// A test that runs several commands starts a process for each (a second or more on a loaded
// two-core machine): such files get three minutes a test (as the browser walks), not the suite's 30 s, as a hang guard.
vi.setConfig({ testTimeout: 180_000 })
const BUILT_CLI = path.resolve('dist/src/cli.js')

/** The newest change under `folder`, in milliseconds. */
function newestChange(folder: string): number {
  let newest = 0
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

/**
 * How the command is started: the built one (`npm test` builds before it runs the suite) when it is
 * newer than every source file, else the source through tsx, which compiles ~400 modules at every
 * start (a second more per command).
 */
const cliCommand: string[] = fs.existsSync(BUILT_CLI) && fs.statSync(BUILT_CLI).mtimeMs >= newestChange(path.resolve('src')) ? [BUILT_CLI] : ['--import', 'tsx', CLI_ENTRY]

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  /** stdout parsed as JSON (undefined when it is not JSON). */
  json: any
}

/** Runs `linkwell …args` with DATABASE_URL=`databaseUrl` and `input` on stdin; never rejects. */
export function runCli(databaseUrl: string, args: string[], env: Record<string, string> = {}, input = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...cliCommand, ...args],
      { env: { ...process.env, DATABASE_URL: databaseUrl, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        let json: unknown
        try {
          json = JSON.parse(stdout)
        } catch {
          json = undefined
        }
        resolve({ code, stdout, stderr, json })
      },
    )
    // Ended always: a command that reads stdin must not wait for a test that sends nothing.
    child.stdin!.end(input)
  })
}

/** A database both the CLI process and the test reach: a SQLite file, or a PostgreSQL test schema. */
export interface SharedDatabase {
  url: string
  handle: DatabaseHandle
  /** The HTTP app on this database, built once. */
  app(): Promise<App>
  close(): Promise<void>
}

/** A fresh SQLite file path (not created yet) in its own temporary folder. */
export function freshSqliteUrl(): { url: string; cleanup(): void } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-cli-'))
  return { url: `file:${path.join(folder, 'x.db')}`, cleanup: () => fs.rmSync(folder, { recursive: true, force: true }) }
}

export async function createSharedDatabase(): Promise<SharedDatabase> {
  let handle: DatabaseHandle
  let url: string
  let cleanup: () => Promise<void>
  if (testDialect === 'postgres') {
    const database = await createTestDatabase()
    handle = database
    url = database.url
    cleanup = () => database.destroy()
  } else {
    const file = freshSqliteUrl()
    url = file.url
    handle = openDatabase(url)
    await migrateToLatest(handle)
    cleanup = async () => {
      await handle.close()
      file.cleanup()
    }
  }
  let app: App | undefined
  return {
    url,
    handle,
    async app() {
      if (!app) {
        // The CLI changes accounts behind this app's back; test/http/key-cache.test.ts covers the cache.
        const config = loadConfig({ PUBLIC_URL: 'https://lw.test', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000', KEY_CACHE_MS: '0', LINK_CHECK: 'off' })
        app = (await buildAppOn(handle, config, { rateLimiter: createRateLimiter() })).app
      }
      return app
    },
    async close() {
      await app?.close()
      await cleanup()
    },
  }
}
