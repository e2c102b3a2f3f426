// A ClickHouse server of the tests' own (issue 40, docs/testing.md): Debian's `clickhouse-server`
// started on free loopback ports with a configuration written here (its data, logs and temporary
// files under a temporary folder, listening on 127.0.0.1 only, no interserver port), waited for
// until its HTTP interface answers, and stopped at the end. The suite starts one for the whole run
// (test/global-setup.ts) when the binary is installed and hands its URL to the files through
// TEST_CLICKHOUSE_URL; the scale bench starts its own.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/** Where Debian puts the server (its package installs it under /usr/bin on newer releases). */
const BINARIES = ['/usr/bin/clickhouse-server', '/usr/sbin/clickhouse-server']

/** The server binary, or null when it is not installed. */
export function clickhouseBinary(): string | null {
  if (process.env.CLICKHOUSE_SERVER_BIN) return process.env.CLICKHOUSE_SERVER_BIN
  return BINARIES.find((file) => fs.existsSync(file)) ?? null
}

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export interface ClickhouseServer {
  /** `clickhouse://127.0.0.1:PORT/` (the HTTP port; add a database name). */
  url: string
  httpPort: number
  dir: string
  process: ChildProcess
  /** Stops the server with SIGKILL (a crash, as an outage is; ClickHouse's own shutdown waits seconds for open connections) and removes its folder unless `keep`. */
  stop(options?: { keep?: boolean }): Promise<void>
  /** Stops the server (SIGKILL), keeping its data, and starts it again on the same ports (tests of it away). */
  restart(): Promise<void>
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function configOf(dir: string, httpPort: number, tcpPort: number): string {
  const at = (name: string) => xmlEscape(path.join(dir, name))
  // <yandex> is the root 18.16 reads; current servers read it too.
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${at('log/server.log')}</log><errorlog>${at('log/error.log')}</errorlog><size>10M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <path>${at('data')}/</path>
  <tmp_path>${at('tmp')}/</tmp_path>
  <user_files_path>${at('user_files')}/</user_files_path>
  <format_schema_path>${at('format_schemas')}/</format_schema_path>
  <users_config>${at('users.xml')}</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <max_concurrent_queries>100</max_concurrent_queries>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_server_memory_usage_to_ram_ratio>0.5</max_server_memory_usage_to_ram_ratio>
  <!-- Written only for queries run with log_queries=1 (the scale bench's profile). -->
  <query_log><database>system</database><table>query_log</table><flush_interval_milliseconds>500</flush_interval_milliseconds></query_log>
</yandex>
`
}

const usersOf = (logQueries: boolean) => `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage><max_threads>2</max_threads>${logQueries ? '<log_queries>1</log_queries>' : ''}</default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`

/** Waits until the HTTP interface answers `SELECT 1` (or the process ends, or `timeoutMs` passes). */
async function waitUntilAnswering(url: string, child: ChildProcess, dir: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  let exited: number | null = null
  const onExit = (code: number | null) => (exited = code ?? -1)
  child.once('exit', onExit)
  try {
    while (Date.now() < until) {
      if (exited !== null) {
        const errors = fs.existsSync(path.join(dir, 'log/error.log')) ? fs.readFileSync(path.join(dir, 'log/error.log'), 'utf8').slice(-2000) : ''
        throw new Error(`clickhouse-server exited (${exited}) before it answered: ${errors}`)
      }
      try {
        const response = await fetch(`${url}?query=SELECT%201`, { signal: AbortSignal.timeout(1_000) })
        if (response.ok && (await response.text()).trim() === '1') return
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`clickhouse-server did not answer within ${timeoutMs} ms`)
  } finally {
    child.off('exit', onExit)
  }
}

/** Starts a server on free loopback ports in a new temporary folder (or `dir`). */
export async function startClickhouseServer(options: { dir?: string; timeoutMs?: number; /** Every query in system.query_log (the bench's profile). */ logQueries?: boolean } = {}): Promise<ClickhouseServer> {
  const binary = clickhouseBinary()
  if (!binary) throw new Error('clickhouse-server is not installed')
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-clickhouse-'))
  for (const sub of ['log', 'data', 'tmp', 'user_files', 'format_schemas']) fs.mkdirSync(path.join(dir, sub), { recursive: true })
  const httpPort = await freeLoopbackPort()
  const tcpPort = await freeLoopbackPort()
  fs.writeFileSync(path.join(dir, 'users.xml'), usersOf(options.logQueries ?? false))
  fs.writeFileSync(path.join(dir, 'config.xml'), configOf(dir, httpPort, tcpPort))
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(binary, [`--config-file=${path.join(dir, 'config.xml')}`], { cwd: dir, stdio: ['ignore', 'ignore', 'ignore'], detached: false })
    await waitUntilAnswering(`http://127.0.0.1:${httpPort}/`, child, dir, options.timeoutMs ?? 30_000).catch((error: unknown) => {
      child.kill('SIGKILL')
      throw error
    })
    return child
  }
  const stopChild = async (child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill(signal)
    await ended
  }
  const server: ClickhouseServer = {
    url: `clickhouse://127.0.0.1:${httpPort}/`,
    httpPort,
    dir,
    process: await launch(),
    async stop({ keep = false } = {}) {
      await stopChild(server.process)
      if (!keep) fs.rmSync(dir, { recursive: true, force: true })
    },
    async restart() {
      await stopChild(server.process)
      server.process = await launch()
    },
  }
  return server
}
