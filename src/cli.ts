#!/usr/bin/env node
// The `linkwell` command (src/cli/main.ts). A long-running command (an import: minutes, millions of
// rows) runs with the heap settings `npm start` gives the server (ADR 010): with Node's defaults the
// collector lets the heap grow to about twice the resident memory (ADR 021 measured 314 MB against
// 163 MB). V8 reads those flags when it sets up its heap, before any JavaScript runs, so
// `v8.setFlagsFromString` here would come too late: the command runs itself again with them, from
// this small module before the command's own modules are loaded, and answers with its exit code.
// `LINKWELL_NODE_FLAGS` (empty: none) replaces the flags.
import { spawn } from 'node:child_process'

const SERVER_FLAGS = '--max-semi-space-size=2 --heap-growing-percent=50 --v8-pool-size=1'
const LONG_RUNNING = new Set(['import'])
const RELAUNCHED = 'LINKWELL_CLI_RELAUNCHED'

const flags = (process.env.LINKWELL_NODE_FLAGS ?? SERVER_FLAGS).split(' ').filter(Boolean)
const missing = flags.filter((flag) => !process.execArgv.includes(flag))

if (LONG_RUNNING.has(process.argv[2] ?? '') && missing.length > 0 && !process.env[RELAUNCHED]) {
  const child = spawn(process.execPath, [...process.execArgv, ...missing, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [RELAUNCHED]: '1' },
  })
  // Stopping the command stops the import (it resumes where it was when run again).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal))
  process.exitCode = await new Promise<number>((resolve) => {
    child.on('error', () => resolve(1))
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
} else {
  await (await import('./cli/main.js')).main()
}
