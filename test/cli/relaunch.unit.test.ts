// The one routine that runs Node again as a child (src/cli/relaunch.ts: `cli.ts`'s relaunch of a long
// command, `linkwell serve`): the child's exit code is the command's, and a child a signal ended
// answers 128 + the signal's number, as a shell reports it.
import { describe, expect, it } from 'vitest'
import { runNodeChild } from '../../src/cli/relaunch.js'

describe('runNodeChild', () => {
  it("answers the child's own exit code", async () => {
    expect(await runNodeChild(['-e', 'process.exit(3)'], process.env)).toBe(3)
    expect(await runNodeChild(['-e', ''], process.env)).toBe(0)
  })

  it('answers 128 + the signal for a child a signal ended (143 for SIGTERM, 130 for SIGINT)', async () => {
    const [terminated, interrupted] = await Promise.all([
      runNodeChild(['-e', "process.kill(process.pid, 'SIGTERM'); setInterval(() => {}, 1000)"], process.env),
      runNodeChild(['-e', "process.kill(process.pid, 'SIGINT'); setInterval(() => {}, 1000)"], process.env),
    ])
    expect(terminated).toBe(143)
    expect(interrupted).toBe(130)
  })

  it('gives the child the environment it is handed', async () => {
    expect(await runNodeChild(['-e', 'process.exit(process.env.RELAUNCH_PROBE === "given" ? 5 : 6)'], { ...process.env, RELAUNCH_PROBE: 'given' })).toBe(5)
  })

  it('passes the signals this process gets on to the child while it runs, and no longer once it has ended', async () => {
    const before = process.listenerCount('SIGTERM')
    const running = runNodeChild(['-e', 'setInterval(() => {}, 1000)'], process.env)
    expect(process.listenerCount('SIGTERM')).toBe(before + 1)
    // The listener runNodeChild added, called as a SIGTERM to this process would call it.
    const passOn = process.listeners('SIGTERM').at(-1) as (signal: NodeJS.Signals) => void
    passOn('SIGTERM')
    expect(await running).toBe(143)
    expect(process.listenerCount('SIGTERM')).toBe(before)
  })
})
