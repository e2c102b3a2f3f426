// What every dashboard end-to-end test shares: Debian's Chromium (playwright-core downloads no
// browser), a fresh database per run (SQLite, and PostgreSQL when TEST_DATABASE_URL is set), the
// built server started on it, the first-start credentials, a signed-in browser, console watching
// and screenshots at 1440 and 375 px into test-results/screenshots/ for a person to look at.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { createLinkwellClient, type LinkwellClient } from '../../packages/client/src/index.js'
import { copyOfTemplate } from '../helpers/postgres-template.js'
import { ensureServerBuilt, freePort, startServer, type ServerProcess } from '../helpers/server-process.js'


export const CHROMIUM = '/usr/bin/chromium'
export const DASHBOARD_INDEX = path.resolve('dist/web/index.html')
export const SCREENSHOTS = path.resolve('test-results/screenshots')
// A desktop Chrome: the server does not count clicks of headless browsers (bots).
export const VISITOR_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
export const WIDTHS = [{ width: 1440, height: 900 }, { width: 375, height: 812 }]

export const hasChromium = fs.existsSync(CHROMIUM)
/**
 * Tests reach only loopback addresses (test/helpers/local-dns-only.mjs does it for Node): Chromium
 * resolves no name but the dashboard's own, so neither its background services (autofill
 * predictions, the updater, accounts) nor a page's outside address asks a DNS server.
 */
const NO_DNS_BUT_LOOPBACK = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'
export const postgresUrl = process.env.TEST_DATABASE_URL
// CI installs Chromium (.ci/run): there a missing browser is a failure, never a skip.
if (!hasChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run should have installed Debian's chromium.`)
if (!hasChromium) process.stdout.write(`\nSKIPPED: the dashboard end-to-end tests (${CHROMIUM} is missing; apt-get install chromium).\n`)
else if (!postgresUrl) process.stdout.write('\nSKIPPED: the dashboard end-to-end tests on PostgreSQL (TEST_DATABASE_URL is not set).\n')

export interface FreshDatabase {
  url: string
  drop(): Promise<void>
}

export async function freshSqlite(folder: string): Promise<FreshDatabase> {
  return { url: `file:${path.join(folder, `dashboard-${randomBytes(4).toString('hex')}.db`)}`, drop: async () => {} }
}

/** A new PostgreSQL database, a copy of the suite's migrated template (the server finds nothing to migrate). */
export async function freshPostgres(baseUrl: string): Promise<FreshDatabase> {
  return copyOfTemplate(baseUrl, `lw_e2e_${randomBytes(6).toString('hex')}`)
}

export interface LandingSite {
  url: string
  /** From now on every path answers `status` (500: the site is down; 200 again: it is back). */
  answerWith(status: number): void
  close(): Promise<void>
}

/** The advertiser's site a short link leads to, on this machine: a page headed `heading` at every path. */
export async function startLandingSite(heading = 'Spring sale'): Promise<LandingSite> {
  let status = 200
  const site = http.createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    const title = status === 200 ? heading : `Error ${status}`
    response.end(`<!doctype html><html lang="en"><title>${title}</title><link rel="icon" href="data:,"><h1>${title}</h1></html>`)
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  const { port } = site.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    answerWith: (next) => (status = next),
    close: () => new Promise((resolve) => site.close(() => resolve())),
  }
}

/** The first-start log line: the admin's generated password (and key), printed once. */
export interface Credentials {
  username: string
  password: string
  /** The admin's API key, for setting up data without the browser. */
  apiKey: string
}

export async function firstStartCredentials(server: ServerProcess): Promise<Credentials> {
  const deadline = Date.now() + 10_000
  for (;;) {
    for (const line of server.output().split('\n')) {
      if (!line.includes('"password"')) continue
      const entry = JSON.parse(line) as { username?: string; password?: string; apiKey?: string }
      if (entry.username && entry.password && entry.apiKey) return { username: entry.username, password: entry.password, apiKey: entry.apiKey }
    }
    if (Date.now() > deadline) throw new Error(`no first-start credentials in the log:\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Console errors and uncaught exceptions of a page, every one of them: a first visit asks who is
 * signed in with a probe answered 200 (GET /api/auth/session), so even the way to the sign-in page
 * logs nothing. A refusal a test provokes on purpose goes through allowingConsoleErrors.
 */
export function watchConsole(page: Page, errors: string[]): void {
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    errors.push(`${page.url()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`))
}

/**
 * Runs `step`, during which the browser may log only console errors matching `expected` (the
 * refusals the step provokes on purpose: a wrong password's 401, a 404 for another account's
 * record, a 403 once suspended); those are taken off the run's list, anything else stays and fails the run.
 */
export async function allowingConsoleErrors(errors: string[], expected: RegExp, step: () => Promise<void>): Promise<void> {
  const mark = errors.length
  await step()
  const during = errors.splice(mark)
  const unexpected = during.filter((error) => !expected.test(error))
  errors.push(...unexpected)
  expect(unexpected).toEqual([])
}

/**
 * A picture of the page, once it has settled, as `<prefix>-<name>-<width>.png` (the prefix is the
 * walk's database). A page looks the same on either database: the PostgreSQL walk waits for the page
 * as the SQLite walk does but writes no second, identical picture (a full-page PNG is much of a walk's work).
 */
export async function screenshot(page: Page, prefix: string, name: string): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.locator('.state.loading').first().waitFor({ state: 'detached' })
  if (prefix === 'postgres') return
  const width = page.viewportSize()!.width
  await page.screenshot({ path: path.join(SCREENSHOTS, `${prefix}-${name}-${width}.png`), fullPage: true })
}

/** Screenshots of the page at `address` at every width, then back to the desktop width. */
export async function screenshotAtEveryWidth(page: Page, prefix: string, name: string, address: string, ready: (page: Page) => Promise<unknown>): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await page.goto(address)
    await ready(page)
    await screenshot(page, prefix, name)
    // Nothing sticks out sideways: the page scrolls only downwards.
    expect(await page.evaluate('document.documentElement.scrollWidth'), `${name} at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
  }
  await page.setViewportSize(WIDTHS[0]!)
}


/** The databases each dashboard test runs on. */
export function e2eDatabases(folder: () => string): Array<{ name: string; create: () => Promise<FreshDatabase> }> {
  return [
    { name: 'sqlite', create: () => freshSqlite(folder()) },
    ...(postgresUrl ? [{ name: 'postgres', create: () => freshPostgres(postgresUrl) }] : []),
  ]
}

/**
 * The worker's Chromium: a test worker runs file after file in one process (no isolation), so its
 * walk files share one browser, each in contexts of its own that withDashboard closes. Launched
 * again when it has gone (a crash ends one file's walks, not the next file's); playwright ends it
 * when the worker process exits.
 */
let workerBrowser: Promise<Browser> | undefined

async function sharedBrowser(): Promise<Browser> {
  const running = await workerBrowser?.catch(() => undefined)
  if (running?.isConnected()) return running
  workerBrowser = chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', NO_DNS_BUT_LOOPBACK] })
  return workerBrowser
}

/** The worker's browser and a scratch folder for a test file; builds server and dashboard when a bare `vitest run` has not. */
export function useBrowser(): { browser(): Browser; folder(): string } {
  let browser: Browser | undefined
  let folder: string | undefined
  beforeAll(async () => {
    ensureServerBuilt()
    // What ships: vitest sets NODE_ENV=test, which would give React's development build.
    if (!fs.existsSync(DASHBOARD_INDEX)) execFileSync('npx', ['vite', 'build', 'web'], { stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } })
    fs.mkdirSync(SCREENSHOTS, { recursive: true })
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-dashboard-'))
    browser = await sharedBrowser()
  }, 180_000)
  afterAll(async () => {
    // A file leaves no context open in the shared browser (withDashboard closes its own).
    for (const context of browser?.contexts() ?? []) await context.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })
  return { browser: () => browser!, folder: () => folder! }
}

export interface Dashboard {
  /** `http://127.0.0.1:<port>`: the API, the dashboard at /app/ and the public side. */
  publicUrl: string
  credentials: Credentials
  server: ServerProcess
  /** Console errors of every watched page; the run fails unless it stays empty. */
  errors: string[]
  /** A new browser context (closed at the end) whose pages are watched. */
  newContext(options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>
  /** A page of a new desktop context, signed in as the first-start admin. */
  signedInPage(): Promise<Page>
  /** The SDK (packages/client) with the admin's key: typed setup calls that throw on any refusal. */
  client: LinkwellClient
  /** Calls the API with the admin's key, refusals included; answers the status and parsed body. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>
}

/** Signs `page` in through the sign-in form and waits for the overview. */
export async function signIn(page: Page, publicUrl: string, credentials: Pick<Credentials, 'username' | 'password'>): Promise<void> {
  await page.goto(`${publicUrl}/app/signin`)
  await page.getByLabel('E-mail or username').fill(credentials.username)
  await page.getByLabel('Password').fill(credentials.password)
  await page.getByLabel('Password').press('Enter')
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
}

/**
 * Starts the built server on a fresh database, runs `body` with what a test needs, then closes
 * every context, stops the server (which must exit 0), drops the database and fails on console errors.
 */
export async function withDashboard(browser: Browser, database: FreshDatabase, body: (dashboard: Dashboard) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const port = await freePort()
  const publicUrl = `http://127.0.0.1:${port}`
  // Screenshots reload every page twice within a minute: more than a person's pace.
  const server = await startServer({ PORT: String(port), PUBLIC_URL: publicUrl, DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '1200', LINK_CHECK: 'off', ...env })
  const contexts: BrowserContext[] = []
  const errors: string[] = []
  try {
    const credentials = await firstStartCredentials(server)
    const newContext: Dashboard['newContext'] = async (options) => {
      const context = await browser.newContext({ viewport: WIDTHS[0], userAgent: VISITOR_AGENT, acceptDownloads: true, ...options })
      context.on('page', (page) => watchConsole(page, errors))
      contexts.push(context)
      return context
    }
    await body({
      publicUrl,
      credentials,
      server,
      errors,
      newContext,
      client: createLinkwellClient({ baseUrl: publicUrl, apiKey: credentials.apiKey }),
      async signedInPage() {
        const page = await (await newContext()).newPage()
        await signIn(page, publicUrl, credentials)
        return page
      },
      async api(method, address, payload) {
        const response = await fetch(`${publicUrl}${address}`, {
          method,
          headers: { authorization: `Bearer ${credentials.apiKey}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
          body: payload === undefined ? undefined : JSON.stringify(payload),
        })
        return { status: response.status, body: (await response.json()) as never }
      },
    })
    expect(errors).toEqual([])
  } finally {
    for (const context of contexts) await context.close()
    const code = await server.stop()
    await database.drop()
    expect(code).toBe(0)
  }
}
