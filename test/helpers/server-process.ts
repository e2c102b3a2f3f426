// Starts the built server (`node dist/linkwell.mjs`, what `npm start` runs) as a child process.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'

/** The bundled server `npm run build` writes (scripts/bundle-server.mjs). */
export const SERVER_ENTRY = path.resolve('dist/linkwell.mjs')

/** Builds the server when `npm test` has not (a bare `vitest run`): compile, then bundle. */
export function ensureServerBuilt(): void {
  if (fs.existsSync(SERVER_ENTRY)) return
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe' })
  } catch {
    // Type errors elsewhere still emit JavaScript; the bundle step and the check below decide.
  }
  execFileSync(process.execPath, ['scripts/bundle-server.mjs'], { stdio: 'pipe' })
  if (!fs.existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing and could not be built`)
}

/** The node flags `npm start` gives the server (package.json, docs/adr/010), so tests and benches run it alike. */
export const SERVER_NODE_FLAGS: string[] = (() => {
  const start: string = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')).scripts.start
  return start.split(/\s+/).filter((word) => word.startsWith('--'))
})()

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface StartOptions {
  timeoutMs?: number
  /** Pins the process to this core (taskset), so a load generator on another core never competes with it. */
  cpu?: number
  /** Extra flags for node (e.g. --cpu-prof). */
  nodeArgs?: string[]
  /** Another build's bundled server (a bench's baseline from an older commit), started in that checkout. */
  entry?: { file: string; cwd: string }
}

/** Starts the server with `env` added to this process's environment; waits until /healthz answers. */
export async function startServer(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  // A hang guard: three walks' servers and browsers on two cores have taken over 20 s to answer /healthz.
  const { timeoutMs = 60_000, cpu, nodeArgs = [], entry } = options
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const node = [process.execPath, ...SERVER_NODE_FLAGS, ...nodeArgs, entry?.file ?? SERVER_ENTRY]
  // taskset execs node in its place: the child's pid is the server's.
  const [command, ...args] = cpu === undefined ? node : ['taskset', '-c', String(cpu), ...node]
  const child = spawn(command!, args, {
    cwd: entry?.cwd,
    // The link checker (issue 23) stays off unless a test turns it on: test links point at hosts that do not resolve here.
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', LINK_CHECK: 'off', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`server did not become healthy in ${timeoutMs} ms:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}
