// What TLS costs a redirect (issue 43): one server holding its own certificates (ACME_EMAIL), its
// short link measured under wrk over HTTPS_PORT against the same link over HTTP_PORT, keep-alive
// on both, in alternating rounds (the plain rounds are the baseline, printed with their own rate).
// The certificate is one made here for the main host and put where an order would have put it
// (an ECDSA P-256 key, as orders make); the ACME directory points at a closed port, so nothing is
// ordered while the bench runs. wrk and the server run on different cores. SQLite.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { migrateToLatest, openDatabase } from '../src/db/database.js'
import { nowTimestamp } from '../src/core/time.js'
import { freePort, startServer } from '../test/helpers/server-process.js'
import { createBenchLink, LOAD_CPU, SERVER_CPU } from './redirect-throughput.js'
import { alternate } from './rounds.js'
import { visitorHeaders } from './visitors.js'

const HOST = 'bench.linkwell.test'
const ALIAS = 'tls-bench'

export async function runTlsRedirectBench(options: { seconds: number; rounds: number; nodeArgs?: string[] }): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-tls-bench-'))
  try {
    const key = path.join(folder, 'key.pem')
    const certificate = path.join(folder, 'cert.pem')
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', certificate, '-days', '90', '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=DNS:${HOST}`], { stdio: 'ignore' })
    const databaseUrl = `file:${path.join(folder, 'bench.db')}`
    const database = openDatabase(databaseUrl)
    await migrateToLatest(database)
    const now = new Date()
    await database.db.insertInto('tls_certificates').values({
      hostname: HOST,
      status: 'active',
      certificate: fs.readFileSync(certificate, 'utf8'),
      private_key: fs.readFileSync(key, 'utf8'),
      expires_at: nowTimestamp(new Date(now.getTime() + 89 * 24 * 60 * 60 * 1000)),
      error: null,
      next_attempt_at: null,
      claimed_by: null,
      claimed_until: null,
      updated_at: nowTimestamp(now),
    }).execute()
    await database.close()

    const [port, httpPort, httpsPort] = [await freePort(), await freePort(), await freePort()]
    const server = await startServer({
      PORT: String(port),
      PUBLIC_URL: `http://${HOST}:${port}`,
      DATABASE_URL: databaseUrl,
      ACME_EMAIL: 'bench@linkwell.test',
      // Nothing answers there: no order is made (the certificate is not due) and none could be.
      ACME_DIRECTORY_URL: 'https://127.0.0.1:9/directory',
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(httpsPort),
      LINKWELL_BOOTSTRAP_API_KEY: 'lw_tls_bench_key_000000000000000000000000',
      LOG_LEVEL: 'warn',
    }, { cpu: SERVER_CPU, nodeArgs: options.nodeArgs })
    try {
      await createBenchLink(server.url, 'lw_tls_bench_key_000000000000000000000000', ALIAS)
      const pid = server.child.pid!
      const visitors = visitorHeaders()
      const summary = await alternate({
        bare: { url: `http://127.0.0.1:${httpPort}`, pid },
        linkwell: { url: `https://127.0.0.1:${httpsPort}`, pid },
        rounds: options.rounds,
        // Both ports answer the main host's links; over TLS without a name the main host's certificate is served.
        load: { path: `/${ALIAS}`, seconds: options.seconds, headers: (index) => ({ ...visitors(index), host: HOST }), variants: 1_000, cpu: LOAD_CPU },
      })
      const rate = (value: number) => value.toFixed(0).padStart(7)
      console.log('\nTLS redirect (issue 43): the same server, its short link over https (HTTPS_PORT) ÷ over plain http (HTTP_PORT), keep-alive, 50 connections')
      console.log(`    plain http       ${summary.rounds.map((round) => rate(round.bare.perSecond)).join(' ')} req/s   median ${rate(summary.bare)}, p99 ${summary.bareP99.toFixed(2)} ms`)
      console.log(`    https            ${summary.rounds.map((round) => rate(round.linkwell.perSecond)).join(' ')} req/s   median ${rate(summary.linkwell)}, p99 ${summary.p99.toFixed(2)} ms`)
      console.log(`    ratio per round  ${summary.rounds.map((round) => round.ratio.toFixed(2).padStart(7)).join(' ')}         median ${summary.ratio.toFixed(2)}`)
      console.log(`    CPU µs per answer http ${summary.rounds.map((round) => round.bare.cpuMicroseconds.toFixed(1)).join(', ')}; https ${summary.rounds.map((round) => round.linkwell.cpuMicroseconds.toFixed(1)).join(', ')}; CPU-time ratio median ${summary.cpuRatio.toFixed(2)}`)
      if (summary.badStatuses || summary.socketErrors) console.log(`    WARNING: ${summary.badStatuses} answers ≥ 400, ${summary.socketErrors} socket errors`)
    } finally {
      await server.stop()
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true })
  }
}
