// `linkwell serve` (the built CLI, dist/src/cli.js, as `npm install -g` links it): runs the bundled
// server from an empty folder on its defaults but a free port, with the package's dashboard, the
// database at ./data/linkwell.db, and stops with exit 0 when told. `npm run check:package` (CI)
// does the same from an installed tarball.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ensureServerBuilt, freePort } from '../helpers/server-process.js'

const CLI = path.resolve('dist/src/cli.js')
let folder: string

beforeAll(() => {
  ensureServerBuilt()
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-serve-'))
}, 180_000)
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }))

it('serves the API, the dashboard (when built) and /healthz, and exits 0 on SIGTERM', async () => {
  const port = await freePort()
  const child = spawn(process.execPath, [CLI, 'serve'], { cwd: folder, env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  try {
    const deadline = Date.now() + 20_000
    while (!(await fetch(`http://127.0.0.1:${port}/healthz`).then((response) => response.ok, () => false))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`linkwell serve did not become healthy:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const firstStart = output.split('\n').find((line) => line.includes('"apiKey"'))
    expect(firstStart).toBeDefined()
    const { apiKey } = JSON.parse(firstStart!) as { apiKey: string }
    expect((await fetch(`http://127.0.0.1:${port}/api/account`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200)
    if (fs.existsSync('dist/web/index.html')) {
      const dashboard = await fetch(`http://127.0.0.1:${port}/app/`)
      expect(dashboard.status).toBe(200)
      expect(await dashboard.text()).toContain('<script')
    }
    expect(fs.existsSync(path.join(folder, 'data', 'linkwell.db'))).toBe(true)
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM')
  }
  expect(await exited).toBe(0)
}, 60_000)

it('takes no options: settings come from the environment', async () => {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '80'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exit) => resolve(exit)))
  expect(code).toBe(2)
  expect(stderr).toContain('serve takes no options')
})
