// The baseline of every throughput figure: a bare node:http server answering one fixed response
// (the same status, headers and body Linkwell sends), pinned to the same core as Linkwell, so a
// ratio says what Linkwell costs above the cheapest Node answer on this machine at that moment.
import { spawn } from 'node:child_process'

export interface FixedResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export interface BareServer {
  url: string
  pid: number
  stop(): Promise<void>
}

const BARE_SERVER = `
const http = require('node:http')
const { status, headers, body } = JSON.parse(process.env.BARE_RESPONSE)
const payload = Buffer.from(body)
const server = http.createServer((request, response) => {
  response.writeHead(status, { ...headers, 'content-length': payload.length })
  response.end(payload)
})
server.keepAliveTimeout = 5000
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
`

/** Starts the bare server on `cpu` (taskset) answering `response` to every request. */
export async function startBareServer(response: FixedResponse, cpu?: number): Promise<BareServer> {
  const node = [process.execPath, '-e', BARE_SERVER]
  const [command, ...args] = cpu === undefined ? node : ['taskset', '-c', String(cpu), ...node]
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BARE_RESPONSE: JSON.stringify(response) } })
  const port = await new Promise<number>((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk) => {
      output += chunk
      if (output.includes('\n')) resolve(Number(output.trim()))
    })
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)))
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** What a server answers to one request: the bare server's template. */
export async function fixedResponseOf(url: string, headers: Record<string, string> = {}): Promise<FixedResponse> {
  const response = await fetch(url, { headers, redirect: 'manual' })
  const kept: Record<string, string> = {}
  // Connection-level headers are node:http's own; the rest is what the client receives.
  for (const [name, value] of response.headers) {
    if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) kept[name] = value
  }
  return { status: response.status, headers: kept, body: await response.text() }
}
