// `npm run bench`: figures as ratios to baselines measured in the same run.
// Needs the build (npm run build); PostgreSQL and Redis from TEST_DATABASE_URL / TEST_REDIS_URL
// (defaults: this machine's 127.0.0.1 servers).
//   BENCH_SECONDS         length of each throughput run (default 8)
//   BENCH_STATS_CLICKS    clicks of the large link in the statistics read (default 10,000,000)
//   BENCH_MEMORY_SECONDS  length of the memory load (default 300)
//   BENCH_ONLY            comma-separated subset: redirect, api, statistics, memory
import { runApiThroughputBench } from './api-throughput.js'
import { runMemoryBench } from './memory-under-load.js'
import { runRedirectThroughputBench } from './redirect-throughput.js'
import { runStatisticsReadBench } from './statistics-read.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const only = new Set((process.env.BENCH_ONLY ?? 'redirect,api,statistics,memory').split(',').map((name) => name.trim()))

if (only.has('redirect')) await runRedirectThroughputBench({ seconds })
if (only.has('api')) {
  await runApiThroughputBench({
    seconds,
    postgresUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  })
}
if (only.has('statistics')) await runStatisticsReadBench({ largeClicks: Number(process.env.BENCH_STATS_CLICKS ?? 10_000_000) })
if (only.has('memory')) await runMemoryBench({ seconds: Number(process.env.BENCH_MEMORY_SECONDS ?? 300) })
