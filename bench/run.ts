// `npm run bench`: throughput figures as ratios to a bare node:http server measured in the same
// run under wrk (installed when missing), plus memory, cold start and the statistics read.
// Needs the build (npm run build); PostgreSQL and Redis from TEST_DATABASE_URL / TEST_REDIS_URL
// (defaults: this machine's 127.0.0.1 servers).
//   BENCH_SECONDS         length of each wrk round (default 5)
//   BENCH_ROUNDS          alternating rounds per figure (default 5)
//   BENCH_STATS_CLICKS    clicks of the large link in the statistics read (default 10,000,000)
//   BENCH_EXPORT_CLICKS   clicks in the clicks export (default 1,000,000)
//   BENCH_IMPORT_LINKS    links of the YOURLS import (default 100,000)
//   BENCH_IMPORT_CLICKS   clicks of the YOURLS import (default 1,000,000)
//   BENCH_IMPORT_CSV_ROWS rows of the CSV uploaded while redirects are measured (default 100,000)
//   BENCH_MYSQL_URL       the MariaDB the YOURLS tables are made in (default TEST_MYSQL_URL, else
//                         mysql://root@127.0.0.1:3306/test)
//   BENCH_MEMORY_SECONDS  length of the memory load (default 300)
//   BENCH_ONLY            comma-separated subset: redirect, redirect-sqlite, redirect-postgres,
//                         api, api-sqlite, api-postgres, two-instances, memory, cold-start, statistics,
//                         export, import, redirects-beside-import (redirect rate while a CSV import
//                         runs ÷ the rate without, issue 36),
//                         analytics (not in the default set: sizes and options in bench/analytics.ts),
//                         analytics-columnar (not in the default set: ADR 022's columnar layout at
//                         the full sizes, bench/analytics-columnar.ts),
//                         clickhouse-scale (not in the default set: the ClickHouse engine at issue 40's
//                         sizes, two instances on PostgreSQL, the feeder's throughput; bench/clickhouse-scale.ts),
//                         redirect-options (not in the default set: a link without options on this
//                         build against the pre-options build in BENCH_BASELINE_DIR, issue 23),
//                         tls (a short link over https against the same server over plain http, issue 43)
//                         redirect-baseline (not in the default set: the same on SQLite and PostgreSQL,
//                         against any baseline build; issue 41 measured e5deea9 against main)
//   BENCH_BASELINE_DIR    the built checkout of the baseline commit (d3c104d^1 for redirect-options)
//   BENCH_BASELINE_LABEL  how the baseline is named in the output (its commit)
//   BENCH_CURRENT_DIR     more built checkouts measured beside this one, comma-separated
//   BENCH_REDIRECT_CONFIGURATIONS  the redirect bench's configurations to measure, by number from 0
//                         (e.g. 0,5: the default and the columnar store); by default all
//   BENCH_VISITOR_QUERY   a query string every redirect visit carries (e.g. gclid=abc&utm_source=ads), for
//                         the cost of passing a visitor's query on (configurations 6 and 7: conversions, issue 39)
//   BENCH_NODE_ARGS       extra node flags for the servers (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof)
import { analyticsOptionsFromEnvironment, runAnalyticsBench } from './analytics.js'
import { columnarOptionsFromEnvironment, runColumnarBench } from './analytics-columnar.js'
import { clickhouseScaleOptionsFromEnvironment, runClickhouseScaleBench } from './clickhouse-scale.js'
import { runApiThroughputBench } from './api-throughput.js'
import { runColdStartBench } from './cold-start.js'
import { runExportBench } from './export.js'
import { importOptionsFromEnvironment, runImportBench } from './import.js'
import { runMemoryBench } from './memory-under-load.js'
import { runRedirectBaselineBench, runRedirectThroughputBench } from './redirect-throughput.js'
import { runRedirectsBesideImportBench } from './redirects-beside-import.js'
import { runStatisticsReadBench } from './statistics-read.js'
import { runTwoInstancesBench } from './two-instances.js'
import { runTlsRedirectBench } from './tls-redirect.js'
import { ensureWrk } from './wrk.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
const only = new Set((process.env.BENCH_ONLY ?? 'redirect,tls,api,two-instances,memory,cold-start,statistics,export,import,redirects-beside-import').split(',').map((name) => name.trim()))
/** The databases a figure runs on: `redirect` means both, `redirect-sqlite` one. */
const databasesOf = (name: string) => new Set(['sqlite', 'postgres'].filter((database) => only.has(name) || only.has(`${name}-${database}`)))

ensureWrk()
console.log(`bench started ${new Date().toISOString()}`)
const redirect = databasesOf('redirect')
if (redirect.size > 0) await runRedirectThroughputBench({ seconds, rounds, postgresUrl, nodeArgs, configurations: process.env.BENCH_REDIRECT_CONFIGURATIONS?.split(',').map(Number) }, redirect)
if (only.has('tls')) await runTlsRedirectBench({ seconds, rounds, nodeArgs })
const baselineBench = { seconds, rounds, postgresUrl, nodeArgs, baselineDir: process.env.BENCH_BASELINE_DIR ?? '', baselineLabel: process.env.BENCH_BASELINE_LABEL, currentDirs: process.env.BENCH_CURRENT_DIR?.split(',').filter(Boolean) }
if (only.has('redirect-options')) await runRedirectBaselineBench({ ...baselineBench, databases: ['sqlite'] })
if (only.has('redirect-baseline')) await runRedirectBaselineBench({ ...baselineBench, databases: ['sqlite', 'postgres'] })
const api = databasesOf('api')
if (api.size > 0) await runApiThroughputBench({ seconds, rounds, postgresUrl, nodeArgs }, api)
if (only.has('two-instances')) await runTwoInstancesBench({ seconds, postgresUrl, redisUrl, nodeArgs })
if (only.has('memory')) await runMemoryBench({ seconds: Number(process.env.BENCH_MEMORY_SECONDS ?? 300), nodeArgs })
if (only.has('cold-start')) await runColdStartBench({ nodeArgs })
if (only.has('statistics')) await runStatisticsReadBench({ largeClicks: Number(process.env.BENCH_STATS_CLICKS ?? 10_000_000) })
if (only.has('export')) await runExportBench({ clicks: Number(process.env.BENCH_EXPORT_CLICKS ?? 1_000_000) })
if (only.has('redirects-beside-import')) await runRedirectsBesideImportBench({ seconds, rounds, rows: Number(process.env.BENCH_IMPORT_CSV_ROWS ?? 100_000), nodeArgs })
if (only.has('import')) await runImportBench(importOptionsFromEnvironment(nodeArgs))
if (only.has('analytics')) await runAnalyticsBench(analyticsOptionsFromEnvironment(postgresUrl))
if (only.has('analytics-columnar')) await runColumnarBench(columnarOptionsFromEnvironment())
if (only.has('clickhouse-scale')) await runClickhouseScaleBench(clickhouseScaleOptionsFromEnvironment(postgresUrl))
console.log(`bench finished ${new Date().toISOString()}`)
