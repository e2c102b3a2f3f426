#!/usr/bin/env node
// The `linkwell` command (src/cli/main.ts). A long-running command (an import: minutes, millions of
// rows) runs with the heap settings `npm start` gives the server (ADR 010): with Node's defaults the
// collector lets the heap grow to about twice the resident memory (ADR 021 measured 314 MB against
// 163 MB). V8 reads those flags when it sets up its heap, before any JavaScript runs, so
// `v8.setFlagsFromString` here would come too late: the command runs itself again with them, from
// this small module before the command's own modules are loaded, and answers with its exit code
// (cli/relaunch.ts: 128 + the signal's number when a signal ended it, as for `linkwell serve`).
// `LINKWELL_NODE_FLAGS` (empty: none) replaces the flags.
import { runNodeChild } from './cli/relaunch.js'

const SERVER_FLAGS = '--max-semi-space-size=2 --heap-growing-percent=50 --v8-pool-size=1'
const LONG_RUNNING = new Set(['import'])
const RELAUNCHED = 'LINKWELL_CLI_RELAUNCHED'

const flags = (process.env.LINKWELL_NODE_FLAGS ?? SERVER_FLAGS).split(' ').filter(Boolean)
const missing = flags.filter((flag) => !process.execArgv.includes(flag))

if (LONG_RUNNING.has(process.argv[2] ?? '') && missing.length > 0 && !process.env[RELAUNCHED]) {
  // Stopping the command stops the import (it resumes where it was when run again).
  process.exitCode = await runNodeChild([...process.execArgv, ...missing, ...process.argv.slice(1)], { ...process.env, [RELAUNCHED]: '1' }).catch((error: Error) => {
    process.stderr.write(`linkwell: the command could not be run again with the server's heap flags: ${error.message}\n`)
    return 1
  })
} else {
  await (await import('./cli/main.js')).main()
}
