// Importing from YOURLS (issue 21, ADR 021): its two tables as YOURLS creates them (the
// definitions test/modules/imports/yourls-import.test.ts uses, from YOURLS'
// includes/functions-install.php) in MariaDB (BENCH_MYSQL_URL, default this machine's
// mysql://root@127.0.0.1:3306/test) under a prefix of this run, filled with 100,000 links and
// 1,000,000 clicks by multi-row INSERTs, then imported into a fresh SQLite database by
// `linkwell import yourls` (the built CLI, the same code path a person runs) in a child process
// whose resident memory is sampled every 100 ms; the job's row tells how far it is. Reports the
// time of each phase, rows per second, the peak and the samples of resident memory (flat or not),
// checks the job's counts and the statistics against the source, then drops the tables. Targets:
// under 2 minutes, under 250 MB and flat.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import mysql from 'mysql2/promise'
import { startServer } from '../test/helpers/server-process.js'

interface Options {
  links: number
  clicks: number
  mysqlUrl: string
  /** Extra node flags for the import's process (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof). */
  nodeArgs: string[]
}

export function importOptionsFromEnvironment(nodeArgs: string[]): Options {
  return {
    links: Number(process.env.BENCH_IMPORT_LINKS ?? 100_000),
    clicks: Number(process.env.BENCH_IMPORT_CLICKS ?? 1_000_000),
    mysqlUrl: process.env.BENCH_MYSQL_URL ?? process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test',
    nodeArgs,
  }
}

const CLI = path.resolve('dist/src/cli.js')
const TARGET_SECONDS = 120
const TARGET_MB = 250
const INSERT_ROWS = 5_000

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
]
const REFERRERS = ['direct', 'https://www.google.com/search?q=spring', 'https://t.co/abc', 'https://news.ycombinator.com/item?id=1', 'direct', 'https://www.facebook.com/']
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'BR', 'IN', 'JP', '']

function residentMbOf(pid: number): number | undefined {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1])
    return Number.isFinite(kb) && kb > 0 ? kb / 1024 : undefined
  } catch {
    return undefined
  }
}

/** The process's children (`linkwell import` runs itself again with the server's heap flags). */
function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** Resident memory of the command: the process started and the processes it started (MB), and of the largest alone. */
function residentMb(pid: number): { total: number; largest: number } | undefined {
  const own = residentMbOf(pid)
  if (own === undefined) return undefined
  const sizes = [own, ...childrenOf(pid).map((child) => residentMbOf(child) ?? 0)]
  return { total: sizes.reduce((sum, size) => sum + size, 0), largest: Math.max(...sizes) }
}

// Letters and digits no reserved word has (a base-36 count spells words such as "bio").
const keywordOf = (index: number) => `y${index}`
const pad = (value: number) => String(value).padStart(2, '0')
/** A date-time `seconds` after 2023-01-01 00:00:00 UTC, as MariaDB writes it. */
function timeAt(seconds: number): string {
  const date = new Date(Date.UTC(2023, 0, 1) + seconds * 1000)
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
}

/** The tables of one run, as YOURLS creates them (the definitions the YOURLS import test uses). */
async function createTables(connection: mysql.Connection, prefix: string): Promise<void> {
  await connection.query(
    `CREATE TABLE \`${prefix}url\` (\`keyword\` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '', \`url\` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, ` +
    `\`title\` text COLLATE utf8mb4_unicode_ci DEFAULT NULL, \`timestamp\` timestamp NOT NULL DEFAULT current_timestamp(), \`ip\` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL, ` +
    `\`clicks\` int(10) unsigned NOT NULL, PRIMARY KEY (\`keyword\`), KEY \`ip\` (\`ip\`), KEY \`timestamp\` (\`timestamp\`), KEY \`url_idx\` (\`url\`(30))) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
  )
  await connection.query(
    `CREATE TABLE \`${prefix}log\` (\`click_id\` int(11) NOT NULL auto_increment, \`click_time\` datetime NOT NULL, \`shorturl\` varchar(100) BINARY NOT NULL, \`referrer\` varchar(200) NOT NULL, ` +
    `\`user_agent\` varchar(255) NOT NULL, \`ip_address\` varchar(41) NOT NULL, \`country_code\` char(2) NOT NULL, PRIMARY KEY (\`click_id\`), KEY \`shorturl\` (\`shorturl\`)) AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  )
}

/** Fills the tables: `links` links, `clicks` clicks spread over them (each link's share in its `clicks` column). */
async function fillTables(connection: mysql.Connection, prefix: string, links: number, clicks: number): Promise<void> {
  const clicksOf = (index: number) => Math.floor(clicks / links) + (index < clicks % links ? 1 : 0)
  for (let start = 0; start < links; start += INSERT_ROWS) {
    const rows: unknown[][] = []
    for (let index = start; index < Math.min(links, start + INSERT_ROWS); index += 1) {
      rows.push([keywordOf(index), `https://example.com/products/${index}?utm_source=yourls`, index % 3 === 0 ? null : `Product ${index}`, timeAt(index * 60), '10.0.0.1', clicksOf(index)])
    }
    await connection.query(`INSERT INTO \`${prefix}url\` (keyword, url, title, timestamp, ip, clicks) VALUES ?`, [rows])
  }
  // Clicks in time order, each to the next link round the list (so every link gets its share).
  for (let start = 0; start < clicks; start += INSERT_ROWS) {
    const rows: unknown[][] = []
    for (let index = start; index < Math.min(clicks, start + INSERT_ROWS); index += 1) {
      rows.push([timeAt(index * 30), keywordOf(index % links), REFERRERS[index % REFERRERS.length], AGENTS[index % AGENTS.length], '10.0.0.2', COUNTRIES[index % COUNTRIES.length]])
    }
    await connection.query(`INSERT INTO \`${prefix}log\` (click_time, shorturl, referrer, user_agent, ip_address, country_code) VALUES ?`, [rows])
  }
}

/**
 * Statistics after the import against the source: every link's counter against YOURLS' `clicks`
 * column, and the clicks by country against its log. Prints what it compared; true when all equal.
 */
async function statisticsEqualSource(connection: mysql.Connection, prefix: string, file: string, accountId: number): Promise<boolean> {
  const [sourceLinks] = await connection.query(`SELECT keyword, clicks FROM \`${prefix}url\``) as unknown as [Array<{ keyword: string; clicks: number }>]
  const [sourceCountries] = await connection.query(`SELECT country_code AS country, COUNT(*) AS clicks FROM \`${prefix}log\` GROUP BY country_code`) as unknown as [Array<{ country: string; clicks: number }>]
  const imported = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const counters = new Map((imported.prepare('select alias, clicks from links where account_id = ?').all(accountId) as Array<{ alias: string; clicks: number }>).map((link) => [link.alias, link.clicks]))
    const wrongLinks = sourceLinks.filter((link) => counters.get(link.keyword) !== Number(link.clicks)).length
    const countries = new Map((imported.prepare(`select t.value, sum(t.clicks) as clicks from click_totals t join links l on l.id = t.item_id
      where t.item_type = 'link' and t.dimension = 'country' and l.account_id = ? group by t.value`).all(accountId) as Array<{ value: string; clicks: number }>).map((row) => [row.value, row.clicks]))
    const wrongCountries = sourceCountries.filter((row) => countries.get(row.country || '') !== Number(row.clicks)).length
    console.log(`  statistics against the source: ${sourceLinks.length - wrongLinks}/${sourceLinks.length} links' counters equal their YOURLS clicks, ${sourceCountries.length - wrongCountries}/${sourceCountries.length} countries' totals equal the log's`)
    return wrongLinks === 0 && wrongCountries === 0 && countries.size === sourceCountries.length
  } finally {
    imported.close()
  }
}

interface JobRow { state: string; phase: string; rows_read: number; links_created: number; clicks_imported: number }

export async function runImportBench(options: Options): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-import-'))
  const databaseUrl = `file:${path.join(dir, 'import.db')}`
  const prefix = `lwbench_${randomBytes(3).toString('hex')}_`
  const connection = await mysql.createConnection({ uri: options.mysqlUrl, multipleStatements: false })
  try {
    const setup = await startServer({ DATABASE_URL: databaseUrl, LINKWELL_BOOTSTRAP_API_KEY: randomBytes(32).toString('base64url'), LOG_LEVEL: 'warn', LINK_CHECK: 'off' }, { timeoutMs: 60_000 })
    await setup.stop()
    const file = databaseUrl.slice('file:'.length)
    const accountId = (new Database(file, { readonly: true }).prepare('select id from accounts order by id limit 1').get() as { id: number }).id

    await createTables(connection, prefix)
    const fillStarted = performance.now()
    await fillTables(connection, prefix, options.links, options.clicks)
    const fillSeconds = (performance.now() - fillStarted) / 1000

    const jobs = new Database(file, { readonly: true, fileMustExist: true })
    const readJob = () => jobs.prepare('select state, phase, rows_read, links_created, clicks_imported from import_jobs order by id desc limit 1').get() as JobRow | undefined
    const samples: Array<{ seconds: number; mb: number; largest: number; job: JobRow | undefined }> = []
    const started = performance.now()
    let linksDoneAt: number | undefined
    const child = spawn(process.execPath, [...options.nodeArgs, CLI, 'import', 'yourls', '--account', String(accountId), '--database', options.mysqlUrl, '--prefix', prefix, '--on-conflict', 'skip'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    let ticks = 0
    const sampler = setInterval(() => {
      const resident = residentMb(child.pid!)
      if (resident === undefined) return
      ticks += 1
      // The job's row once a second (the import's own progress, read beside it).
      const job = ticks % 10 === 0 ? readJob() : undefined
      const seconds = (performance.now() - started) / 1000
      if (job?.phase === 'clicks' && linksDoneAt === undefined) linksDoneAt = seconds
      samples.push({ seconds, mb: resident.total, largest: resident.largest, job })
    }, 100)
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    clearInterval(sampler)
    const seconds = (performance.now() - started) / 1000
    const job = readJob()
    jobs.close()

    const [[source]] = await connection.query(`SELECT (SELECT COUNT(*) FROM \`${prefix}url\`) AS links, (SELECT COUNT(*) FROM \`${prefix}log\`) AS clicks`) as unknown as [[{ links: number; clicks: number }]]
    const peak = Math.max(...samples.map((sample) => sample.mb))
    const at = (fraction: number) => samples[Math.min(samples.length - 1, Math.floor(fraction * samples.length))]!
    const firstHalfPeak = Math.max(...samples.slice(0, Math.ceil(samples.length / 2)).map((sample) => sample.mb))
    const secondHalfPeak = Math.max(...samples.slice(Math.ceil(samples.length / 2)).map((sample) => sample.mb))
    const rows = options.links + options.clicks

    console.log(`\nYOURLS import: linkwell import yourls, MariaDB → SQLite, ${source.links} links and ${source.clicks} clicks (tables filled in ${fillSeconds.toFixed(0)} s)`)
    if (code !== 0) console.log(`  FAILED: the import exited ${code}:\n${output}`)
    console.log(`  whole import: ${seconds.toFixed(1)} s, ${Math.round(rows / seconds)} rows/s (links and clicks)`)
    if (linksDoneAt !== undefined) {
      console.log(`  links phase:  ${linksDoneAt.toFixed(1)} s, ${Math.round(options.links / linksDoneAt)} links/s`)
      console.log(`  clicks phase: ${(seconds - linksDoneAt).toFixed(1)} s, ${Math.round(options.clicks / (seconds - linksDoneAt))} clicks/s`)
    }
    console.log(`  resident memory (the command's processes together): peak ${peak.toFixed(0)} MB (the importing process alone: ${Math.max(...samples.map((sample) => sample.largest)).toFixed(0)} MB); first half's peak ${firstHalfPeak.toFixed(0)} MB, second half's ${secondHalfPeak.toFixed(0)} MB`)
    console.log(`  samples (time: MB, progress): ${[0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95].map((fraction) => {
      const sample = at(fraction)
      const progress = samples.slice(0, samples.indexOf(sample) + 1).reverse().find((entry) => entry.job)?.job
      return `${sample.seconds.toFixed(0)} s: ${sample.mb.toFixed(0)} MB${progress ? ` (${progress.phase}: ${progress.phase === 'links' ? progress.rows_read : progress.clicks_imported})` : ''}`
    }).join(', ')}`)
    console.log(`  job: ${job?.state}, ${job?.links_created} links created, ${job?.clicks_imported} clicks imported`)
    const totalsEqual = await statisticsEqualSource(connection, prefix, file, accountId)
    const complete = job?.state === 'done' && job.links_created === Number(source.links) && job.clicks_imported === Number(source.clicks) && totalsEqual
    if (!complete) console.log(`  WRONG: the job imported ${job?.links_created}/${source.links} links and ${job?.clicks_imported}/${source.clicks} clicks${totalsEqual ? '' : ', and its statistics differ from the source (above)'}`)
    // The targets are for the issue's size; a smaller run only shows the trend.
    const fullSize = options.links >= 100_000 && options.clicks >= 1_000_000
    console.log(`  targets for 100,000 links and 1,000,000 clicks (under ${TARGET_SECONDS} s, under ${TARGET_MB} MB): ${fullSize ? (seconds < TARGET_SECONDS && peak < TARGET_MB && complete ? 'met' : 'NOT met') : 'not judged at this size'}`)
  } finally {
    await connection.query(`DROP TABLE IF EXISTS \`${prefix}url\`, \`${prefix}log\``).catch(() => {})
    await connection.end()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
