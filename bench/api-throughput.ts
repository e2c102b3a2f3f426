// API requests per second: `GET /api/urls` (15 links, authenticated, rate-limited) on one
// instance on SQLite and one on PostgreSQL, each against a bare node:http server sending the
// same bytes, in alternating rounds under wrk.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startServer } from '../test/helpers/server-process.js'
import { fixedResponseOf, startBareServer } from './bare-server.js'
import { withBenchDatabase } from './postgres-database.js'
import { LOAD_CPU, SERVER_CPU } from './redirect-throughput.js'
import { alternate, printRounds } from './rounds.js'

export interface ApiBenchOptions {
  seconds: number
  rounds: number
  postgresUrl: string
  nodeArgs?: string[]
}

const CONNECTIONS = 50
const LINKS = 15
const PATH = `/api/urls?limit=${LINKS}`
const TARGET_RATIO = 0.2

/** Creates `count` links with varied fields, so the list has real records to serialise. */
export async function createListedLinks(baseUrl: string, apiKey: string, count: number): Promise<void> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }
  for (let index = 0; index < count; index += 1) {
    const body = { url: `https://example.com/articles/${index}?utm_source=newsletter&utm_medium=email`, custom: `listed-${index}`, metatitle: `Article ${index}: a title of ordinary length`, metadescription: 'A description a person would write for a link preview, of a sentence or two.' }
    const response = await fetch(`${baseUrl}/api/url/add`, { method: 'POST', headers, body: JSON.stringify(body) })
    if (response.status !== 201) throw new Error(`POST /api/url/add answered ${response.status}: ${await response.text()}`)
  }
}

async function measureOn(label: string, databaseUrl: string, options: ApiBenchOptions): Promise<void> {
  const apiKey = randomBytes(32).toString('base64url')
  const server = await startServer({ DATABASE_URL: databaseUrl, LINKWELL_BOOTSTRAP_API_KEY: apiKey, RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' }, { cpu: SERVER_CPU, nodeArgs: options.nodeArgs })
  try {
    await createListedLinks(server.url, apiKey, LINKS)
    const headers = { authorization: `Bearer ${apiKey}` }
    const response = await fixedResponseOf(`${server.url}${PATH}`, headers)
    if (response.status !== 200) throw new Error(`GET ${PATH} answered ${response.status}: ${response.body}`)
    const bare = await startBareServer(response, SERVER_CPU)
    try {
      const summary = await alternate({
        bare: { url: bare.url, pid: bare.pid },
        linkwell: { url: server.url, pid: server.child.pid! },
        rounds: options.rounds,
        load: { path: PATH, seconds: options.seconds, headers: () => headers, variants: 1, connections: CONNECTIONS, cpu: LOAD_CPU },
      })
      printRounds(`${label}: GET ${PATH} (${LINKS} records, ${Buffer.byteLength(response.body)} bytes), Bearer key`, summary, TARGET_RATIO)
    } finally {
      await bare.stop()
    }
  } finally {
    await server.stop()
  }
}

export async function runApiThroughputBench(options: ApiBenchOptions, only: Set<string> = new Set(['sqlite', 'postgres'])): Promise<void> {
  console.log(`\nAPI throughput: wrk -t1 -c${CONNECTIONS}, server on core ${SERVER_CPU}, wrk on core ${LOAD_CPU}, ${options.rounds} alternating rounds of ${options.seconds} s, ${os.cpus().length} cores`)
  if (only.has('sqlite')) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-api-'))
    try {
      await measureOn('SQLite', `file:${path.join(dir, 'bench.db')}`, options)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  if (only.has('postgres')) await withBenchDatabase(options.postgresUrl, (url) => measureOn('PostgreSQL', url, options))
}
