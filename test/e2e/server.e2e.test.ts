// The real server process (`node dist/linkwell.mjs`, what `npm start` runs) over HTTP: start-up,
// first-start bootstrap, an API round trip, log hygiene, configuration errors, clean shutdown.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureServerBuilt, SERVER_ENTRY } from '../helpers/server-process.js'


interface RunningServer {
  url: string
  stdout(): string
  stderr(): string
  /** Sends SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Only what the server needs: nothing from the test runner's environment leaks in (REDIS_URL…). */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...extra }
}

const started: ChildProcess[] = []

function spawnServer(env: Record<string, string>): { child: ChildProcess; stdout(): string; stderr(): string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [SERVER_ENTRY], { env: serverEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  started.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}

/** Starts the server on a free port and waits until /healthz answers 200. */
async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort()
  const server = spawnServer({ ...env, PORT: String(port) })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited with ${server.child.exitCode}:\n${server.stderr()}${server.stdout()}`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${server.stderr()}${server.stdout()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url,
    stdout: server.stdout,
    stderr: server.stderr,
    stop: async () => {
      if (server.child.exitCode === null) server.child.kill('SIGTERM')
      return server.exited
    },
  }
}

/** Parses pino's stdout: one JSON object per line; fails on any line that is not. */
function logLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>
      } catch {
        throw new Error(`log line is not JSON: ${line}`)
      }
    })
}

async function call(server: RunningServer, method: string, urlPath: string, apiKey: string | null, body?: unknown) {
  const response = await fetch(`${server.url}${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, headers: response.headers, data: (await response.json()) as any }
}

/** Signs in as the dashboard does (PUBLIC_URL defaults to http://localhost:PORT); answers the status and the session cookie. */
async function signIn(server: RunningServer, login: string, password: string) {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://localhost:${new URL(server.url).port}`, 'x-linkwell-csrf': '1' },
    body: JSON.stringify({ login, password }),
  })
  return { status: response.status, cookie: response.headers.get('set-cookie')?.split(';', 1)[0] }
}

describe('the server process', () => {
  let folder: string

  beforeAll(() => {
    // `npm test` builds dist/ before vitest runs; a bare `vitest run` may not have.
    ensureServerBuilt()
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-e2e-'))
  }, 120_000)

  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }))

  it('serves the API with the bootstrap key, keeps the key out of the logs and exits 0 on SIGTERM', async () => {
    const apiKey = randomBytes(32).toString('base64url')
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const server = await startServer({ DATABASE_URL: `file:${path.join(folder, 'e2e.db')}`, LINKWELL_BOOTSTRAP_API_KEY: apiKey })

    const account = await call(server, 'GET', '/api/account', apiKey)
    expect(account.status).toBe(200)
    expect(account.data).toMatchObject({ error: 0, data: { username: 'admin', email: 'admin@localhost' } })
    expect(account.headers.get('x-ratelimit-limit')).toBe('30')
    expect((await call(server, 'GET', '/api/users', apiKey)).status).toBe(200)

    const created = await call(server, 'POST', '/api/campaign/add', apiKey, { name: 'End to end', slug: 'end-to-end' })
    expect(created.status).toBe(201)
    expect(created.data).toMatchObject({ error: 0, name: 'End to end', rotator: `http://localhost:${new URL(server.url).port}/r/end-to-end` })
    const listed = await call(server, 'GET', '/api/campaigns', apiKey)
    expect(listed.status).toBe(200)
    expect(listed.data.data.campaigns).toEqual([expect.objectContaining({ id: created.data.id, name: 'End to end' })])

    const refused = await call(server, 'GET', '/api/account', `lw_${'x'.repeat(43)}`)
    expect(refused.status).toBe(401)

    expect(await server.stop()).toBe(0)
    const lines = logLines(server.stdout())
    // The requests were logged (so the check below means something), the key never was.
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(true)
    expect(lines.some((line) => String(line.msg).includes('LINKWELL_BOOTSTRAP_API_KEY'))).toBe(true)
    expect(server.stdout()).not.toContain(apiKey)
    expect(server.stderr()).not.toContain(apiKey)
  })

  it('logs a generated key once on the very first start; it works, and a restart creates nothing', async () => {
    const databaseUrl = `file:${path.join(folder, 'first-start.db')}`
    const first = await startServer({ DATABASE_URL: databaseUrl })
    // The bootstrap runs right after listen; give the log line a moment to appear.
    const deadline = Date.now() + 10_000
    while (!first.stdout().includes('"apiKey"') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    const keyLines = logLines(first.stdout()).filter((line) => typeof line.apiKey === 'string')
    expect(keyLines).toHaveLength(1)
    const apiKey = keyLines[0]!.apiKey as string
    expect(apiKey).toMatch(/^lw_[A-Za-z0-9_-]{43}$/)

    const account = await call(first, 'GET', '/api/account', apiKey)
    expect(account.status).toBe(200)
    expect(account.data.data.username).toBe('admin')

    // The same line gives the dashboard's address and a generated password that signs in there.
    const { password, signIn: address, msg } = keyLines[0]! as { password: string; signIn: string; msg: string }
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(address).toBe(`http://localhost:${new URL(first.url).port}/app/`)
    expect(msg).toContain(address)
    const session = await signIn(first, 'admin', password)
    expect(session.status).toBe(200)
    const viaCookie = await fetch(`${first.url}/api/account`, { headers: { cookie: session.cookie! } })
    expect(((await viaCookie.json()) as any).data.username).toBe('admin')
    expect(await first.stop()).toBe(0)
    // Shown once: the only place each appears is that one line.
    expect(first.stdout().split(apiKey).length - 1).toBe(1)
    expect(first.stdout().split(password).length - 1).toBe(1)

    const second = await startServer({ DATABASE_URL: databaseUrl })
    expect((await call(second, 'GET', '/api/account', apiKey)).status).toBe(200)
    expect(await second.stop()).toBe(0)
    expect(second.stdout()).not.toContain('"apiKey"')
    expect(second.stdout()).not.toContain(apiKey)
  })

  it('gives the first admin LINKWELL_BOOTSTRAP_PASSWORD, never printing it', async () => {
    const password = `chosen ${randomBytes(6).toString('hex')}`
    const server = await startServer({ DATABASE_URL: `file:${path.join(folder, 'chosen-password.db')}`, LINKWELL_BOOTSTRAP_PASSWORD: password })
    const deadline = Date.now() + 10_000
    while (!server.stdout().includes('first start') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    const line = logLines(server.stdout()).find((entry) => String(entry.msg).startsWith('first start'))!
    expect(line.msg).toContain('LINKWELL_BOOTSTRAP_PASSWORD')
    expect(line.password).toBeUndefined()
    expect(line.apiKey).toMatch(/^lw_/)
    expect((await signIn(server, 'admin', password)).status).toBe(200)
    expect((await signIn(server, 'admin', 'not the chosen one')).status).toBe(401)
    expect(await server.stop()).toBe(0)
    expect(server.stdout()).not.toContain(password)
  })

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/linkwell' }],
    ['LINKWELL_BOOTSTRAP_API_KEY', { LINKWELL_BOOTSTRAP_API_KEY: 'too-short' }],
    ['LINKWELL_BOOTSTRAP_PASSWORD', { LINKWELL_BOOTSTRAP_PASSWORD: 'short' }],
    ['SESSION_DAYS', { SESSION_DAYS: '0' }],
  ])('refuses to start with a bad %s, naming it, without a stack trace', async (variable, env) => {
    const server = spawnServer({ DATABASE_URL: `file:${path.join(folder, 'never.db')}`, ...env })
    const code = await server.exited
    expect(code).not.toBe(0)
    expect(code).not.toBeNull()
    expect(server.stderr()).toContain(variable)
    expect(server.stderr()).not.toMatch(/\n\s+at /)
    expect(fs.existsSync(path.join(folder, 'never.db'))).toBe(false)
  })
})
