// The one way the `linkwell` command runs Node again as a child and waits for it: `cli.ts` runs a
// long command again with the server's heap flags, `serve` runs the bundled server. It imports
// nothing of Linkwell's own, so the waiting parent stays small (ADR 021: ~43 MB).
import { spawn } from 'node:child_process'
import os from 'node:os'

const PASSED_ON: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * Runs `node …args` with this process's standard streams and `env`, passing SIGINT, SIGTERM and
 * SIGHUP on to it while it runs, and answers its exit code: 128 + the signal's number when a signal
 * ended it (as a shell reports it: 130 for SIGINT, 143 for SIGTERM). Rejects when it cannot be started.
 */
export async function runNodeChild(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env })
  const passOn = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
  }
  for (const signal of PASSED_ON) process.on(signal, passOn)
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', reject)
      child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0)))
    })
  } finally {
    for (const signal of PASSED_ON) process.off(signal, passOn)
  }
}
