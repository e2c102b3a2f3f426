// CI (.ci/run): the package `npm pack` makes installs on a clean prefix and serves.
// Packs the built server (dist/linkwell.mjs, dist/src for the `linkwell` command, dist/web) with
// package-lock.json as its npm-shrinkwrap.json, installs the tarball with `npm install -g` into an
// empty temporary prefix (dependencies from the registry, the versions the lockfile pins), runs
// `linkwell serve` from an empty folder on its defaults but a free port, and checks that /healthz,
// the dashboard and the API (with the first-start key from the log) answer, and that it stops
// with exit 0 on SIGTERM. Builds first when `npm run build` has not run.
//
// better-sqlite3's install script (prebuild-install) downloads a prebuilt binary for this Node and
// platform from its GitHub releases, and compiles from source (about a minute here) only when it
// cannot. This machine reaches no GitHub, so the check serves the binary `npm ci` built for this
// checkout (the same version, Node and platform) from a mirror on loopback, the way a firewalled
// company points `npm_config_better_sqlite3_binary_host` at its own mirror: the install runs the
// package's real install script and takes the prebuilt path a person with internet access takes.
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const started = Date.now()
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-package-'))

function run(command, args, options = {}) {
  process.stdout.write(`$ ${command} ${args.join(' ')}\n`)
  execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options })
}

/** `run` without blocking this process: the loopback mirror below must answer while npm installs. */
function runAsync(command, args, options = {}) {
  process.stdout.write(`$ ${command} ${args.join(' ')}\n`)
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`))))
  })
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

/**
 * A loopback mirror of better-sqlite3's release downloads holding one file: this checkout's built
 * binary, packed as prebuild-install expects (`build/Release/better_sqlite3.node` in a .tar.gz).
 * Answers undefined when there is no built binary to serve (the install then compiles).
 */
async function startBinaryMirror() {
  const packageFolder = path.join('node_modules', 'better-sqlite3')
  const binary = path.join(packageFolder, 'build', 'Release', 'better_sqlite3.node')
  if (!fs.existsSync(binary)) return undefined
  const { version } = JSON.parse(fs.readFileSync(path.join(packageFolder, 'package.json'), 'utf8'))
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  const archive = path.join(work, name)
  execFileSync('tar', ['-czf', archive, '-C', packageFolder, 'build/Release/better_sqlite3.node'])
  const requests = []
  const mirror = http.createServer((request, response) => {
    requests.push(request.url)
    if (request.url !== `/v${version}/${name}`) return response.writeHead(404).end()
    response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': fs.statSync(archive).size })
    fs.createReadStream(archive).pipe(response)
  })
  await new Promise((resolve) => mirror.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${mirror.address().port}`, requests, close: () => new Promise((resolve) => mirror.close(resolve)) }
}

let server
let mirror
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
  mirror = await startBinaryMirror()
  const installEnv = { ...process.env, ...(mirror ? { npm_config_better_sqlite3_binary_host: mirror.url } : {}) }
  await runAsync('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--allow-scripts=better-sqlite3', path.join(work, tarball)], { env: installEnv })
  const installed = path.join(prefix, 'lib', 'node_modules', 'linkwell', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')
  if (!fs.existsSync(installed)) fail(`the install left no better-sqlite3 binary at ${installed}`)
  const how = !mirror ? 'compiled it (this checkout has no built binary to mirror)' : mirror.requests.length ? `took the prebuilt binary from the loopback mirror (${mirror.requests.join(', ')})` : 'compiled it without asking the mirror'
  process.stdout.write(`check-package: better-sqlite3's install script ${how}\n`)

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
  if (mirror) {
    await mirror.close()
    // prebuild-install keeps what it downloaded in npm's cache, named by a digest of its address
    // (this run's port): not worth keeping.
    const cache = path.join(process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'), '_prebuilds')
    const digest = (address) => createHash('sha512').update(address).digest('hex').slice(0, 6)
    for (const address of mirror.requests) fs.rmSync(path.join(cache, `${digest(mirror.url + address)}-${path.basename(address).replace(/[^a-zA-Z0-9.]+/g, '-')}`), { force: true })
  }
  fs.rmSync(work, { recursive: true, force: true })
}
