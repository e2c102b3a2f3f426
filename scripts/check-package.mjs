// CI (.ci/run): the package `npm pack` makes installs on a clean prefix and serves.
// Packs the built server (dist/linkwell.mjs, dist/src for the `linkwell` command, dist/web) with
// package-lock.json as its npm-shrinkwrap.json, installs the tarball with `npm install -g` into an
// empty temporary prefix (dependencies from the registry, the versions the lockfile pins), runs
// `linkwell serve` from an empty folder on its defaults but a free port, and checks that /healthz,
// the dashboard and the API (with the first-start key from the log) answer, and that it stops
// with exit 0 on SIGTERM. Builds first when `npm run build` has not run.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const started = Date.now()
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-package-'))

function run(command, args, options = {}) {
  process.stdout.write(`$ ${command} ${args.join(' ')}\n`)
  execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options })
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

function fail(message) {
  throw new Error(`check-package: ${message}`)
}

let server
try {
  if (!fs.existsSync('dist/linkwell.mjs') || !fs.existsSync('dist/src/cli.js') || !fs.existsSync('dist/web/index.html')) run('npm', ['run', 'build'])
  run('npm', ['run', 'pack:lock'])
  try {
    run('npm', ['pack', '--ignore-scripts', '--pack-destination', work])
  } finally {
    fs.rmSync('npm-shrinkwrap.json', { force: true })
  }
  const tarball = fs.readdirSync(work).find((name) => /^linkwell-.+\.tgz$/.test(name)) ?? fail('npm pack wrote no linkwell-*.tgz')
  const prefix = path.join(work, 'prefix')
  run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--allow-scripts=better-sqlite3', path.join(work, tarball)])

  const folder = path.join(work, 'folder')
  fs.mkdirSync(folder)
  const port = await freePort()
  const address = `http://127.0.0.1:${port}`
  // Nothing of this machine's settings: the server's defaults, on a free port, in an empty folder.
  const env = { PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`, HOME: process.env.HOME ?? work, PORT: String(port), HOST: '127.0.0.1' }
  let output = ''
  server = spawn(path.join(prefix, 'bin', 'linkwell'), ['serve'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] })
  server.stdout.on('data', (chunk) => (output += chunk))
  server.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)))

  const deadline = Date.now() + 30_000
  for (;;) {
    if (server.exitCode !== null) fail(`linkwell serve exited with ${server.exitCode}:\n${output}`)
    const healthy = await fetch(`${address}/healthz`).then((response) => response.ok, () => false)
    if (healthy) break
    if (Date.now() > deadline) fail(`linkwell serve did not answer /healthz in 30 s:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const dashboard = await fetch(`${address}/app/`)
  const page = await dashboard.text()
  if (dashboard.status !== 200 || !page.includes('<script')) fail(`the dashboard answered ${dashboard.status}: ${page.slice(0, 200)}`)
  const firstStart = output.split('\n').filter((line) => line.includes('"apiKey"')).map((line) => JSON.parse(line))[0] ?? fail(`no first-start key in the log:\n${output}`)
  const account = await fetch(`${address}/api/account`, { headers: { authorization: `Bearer ${firstStart.apiKey}` } })
  if (account.status !== 200) fail(`GET /api/account answered ${account.status}`)
  if (!fs.existsSync(path.join(folder, 'data', 'linkwell.db'))) fail('the database is not at its default, ./data/linkwell.db')
  server.kill('SIGTERM')
  const code = await exited
  if (code !== 0) fail(`linkwell serve exited with ${code} on SIGTERM:\n${output}`)
  process.stdout.write(`check-package: ${tarball} installs and serves (${Math.round((Date.now() - started) / 1000)} s)\n`)
} finally {
  if (server && server.exitCode === null) server.kill('SIGKILL')
  fs.rmSync(work, { recursive: true, force: true })
}
