// Runs `linkwell` command lines against a database the test can also open, and builds the HTTP app
// on that same database to check what the command created. `runCli` runs them in a thread of the
// test's process (the CLI's own `runCommandLine`, test/cli/cli-thread.mjs); `runCliProcess` starts
// the `linkwell` command itself, for what only a process shows (exit codes, the bin, the relaunch).
import { execFile } from 'node:child_process'
import { Worker } from 'node:worker_threads'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { App } from '../../src/http/app-instance.js'
import { loadConfig } from '../../src/config.js'
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { createRateLimiter } from '../../src/http/rate-limit.js'
import { buildAppOn } from '../helpers/test-app.js'
import { createTestDatabase, testDialect } from '../helpers/test-database.js'

export const CLI_ENTRY = path.resolve('src/cli.ts')

const BUILT_CLI = path.resolve('dist/src/cli.js')

/** The newest change under `folder`, in milliseconds. */
function newestChange(folder: string): number {
  let newest = 0
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

/** Whether the build (`npm test` builds before it runs the suite) is newer than every source file. */
const builtIsCurrent = fs.existsSync(BUILT_CLI) && fs.statSync(BUILT_CLI).mtimeMs >= newestChange(path.resolve('src'))

/** How the command is started: the built one when it is current, else the source through tsx (~400 modules compiled at every start). */
const cliCommand: string[] = builtIsCurrent ? [BUILT_CLI] : ['--import', 'tsx', CLI_ENTRY]

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  /** stdout parsed as JSON (undefined when it is not JSON). */
  json: any
}

/** Runs the `linkwell` process with `args`, DATABASE_URL=`databaseUrl` and `input` on stdin; never rejects. */
export function runCliProcess(databaseUrl: string, args: string[], env: Record<string, string> = {}, input = ''): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...cliCommand, ...args],
      { env: { ...process.env, DATABASE_URL: databaseUrl, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        resolve(toResult(code, stdout, stderr))
      },
    )
    // Ended always: a command that reads stdin must not wait for a test that sends nothing.
    child.stdin!.end(input)
  })
}

function toResult(code: number, stdout: string, stderr: string): CliResult {
  let json: unknown
  try {
    json = JSON.parse(stdout)
  } catch {
    json = undefined
  }
  return { code, stdout, stderr, json }
}

interface ThreadAnswer {
  id: number
  code: number
  stdout: string
  stderr: string
}

/** The file's command thread, started at its first command line. */
let thread: { worker: Worker; waiting: Map<number, (answer: ThreadAnswer) => void>; next: number } | undefined

function commandThread(): NonNullable<typeof thread> {
  if (thread) return thread
  const worker = new Worker(path.resolve('test/cli/cli-thread.mjs'), {
    workerData: builtIsCurrent ? { entry: pathToFileURL(path.resolve('dist/src/cli/main.js')).href, compile: false } : { entry: pathToFileURL(path.resolve('src/cli/main.ts')).href, compile: true },
  })
  const started = { worker, waiting: new Map<number, (answer: ThreadAnswer) => void>(), next: 0 }
  worker.on('message', (answer: ThreadAnswer) => {
    started.waiting.get(answer.id)?.(answer)
    started.waiting.delete(answer.id)
  })
  // A thread that dies (its modules failed to load) answers every waiting command with what killed it.
  const fail = (message: string) => {
    for (const [id, resolve] of started.waiting) resolve({ id, code: -1, stdout: '', stderr: message })
    started.waiting.clear()
    thread = undefined
  }
  worker.on('error', (error) => fail(`the command thread failed: ${error.stack ?? error.message}`))
  worker.on('exit', (code) => fail(`the command thread exited (${code})`))
  // The thread ends with the test file's process; it never keeps it alive.
  worker.unref()
  thread = started
  return started
}

/**
 * Runs `linkwell …args` with DATABASE_URL=`databaseUrl` and `input` on stdin, in the file's command
 * thread: the same function the bin runs, with this environment and these streams. Never rejects;
 * command lines given at once run one after another.
 */
export function runCli(databaseUrl: string, args: string[], env: Record<string, string> = {}, input = ''): Promise<CliResult> {
  const { worker, waiting, next } = commandThread()
  thread!.next = next + 1
  return new Promise((resolve) => {
    waiting.set(next, (answer) => resolve(toResult(answer.code, answer.stdout, answer.stderr)))
    worker.postMessage({ id: next, args, env: { ...process.env, DATABASE_URL: databaseUrl, ...env }, input })
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
