// `npm run bench`: throughput figures as ratios to baselines measured in the same run.
// Needs the build (npm run build); PostgreSQL and Redis from TEST_DATABASE_URL / TEST_REDIS_URL
// (defaults: this machine's 127.0.0.1 servers). BENCH_SECONDS sets each run's length.
import { runApiThroughputBench } from './api-throughput.js'
import { runRedirectThroughputBench } from './redirect-throughput.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 8)
await runRedirectThroughputBench({ seconds })
await runApiThroughputBench({
  seconds,
  postgresUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
})
