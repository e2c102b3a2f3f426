// Alternating rounds: bare server, Linkwell, bare, Linkwell, … under the same wrk load. On a
// shared machine the rate drifts between rounds; alternating puts both servers through the same
// drift, and the median of the per-round ratios is what is reported, with each round's rates.
// Beside the rates, the CPU time each server spends per answer (from /proc): other processes
// taking the cores lower a rate but hardly the CPU time per answer, so the ratio of the two
// CPU times is a steadier estimate of the throughput ratio on a shared machine. Each round starts
// once every server has finished the work the previous round left (clicks still being written).
import fs from 'node:fs'
import { runWrk, type WrkOptions, type WrkResult } from './wrk.js'

export interface Round {
  bare: WrkResult & { cpuMicroseconds: number }
  linkwell: WrkResult & { cpuMicroseconds: number }
  ratio: number
  cpuRatio: number
}

/** CPU time (user + system, every thread) a process has used, in microseconds (Linux /proc). */
export function cpuTimeMicroseconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name, in ticks of 100 Hz.
  return (Number(fields[11]) + Number(fields[12])) * (1e6 / CLOCK_TICKS)
}
const CLOCK_TICKS = 100

/**
 * Waits until none of `pids` is still busy (under 5 ms of CPU in 250 ms, or 10 s at most): a server
 * writing the clicks of its previous round would otherwise take the core from the one measured next.
 */
async function settle(pids: number[]): Promise<void> {
  const used = () => pids.reduce((sum, pid) => sum + cpuTimeMicroseconds(pid), 0)
  for (let waited = 0; waited < 10_000; waited += 250) {
    const before = used()
    await new Promise((resolve) => setTimeout(resolve, 250))
    if (used() - before < 5_000) return
  }
}

/** One wrk run with the server's CPU time per answer. */
async function measured(load: WrkOptions, pid: number, others: number[] = []): Promise<WrkResult & { cpuMicroseconds: number }> {
  await settle([pid, ...others])
  const before = cpuTimeMicroseconds(pid)
  const result = await runWrk(load)
  return { ...result, cpuMicroseconds: (cpuTimeMicroseconds(pid) - before) / Math.max(result.requests, 1) }
}

export interface RoundsSummary {
  rounds: Round[]
  ratio: number
  /** Median of bare CPU time per answer / Linkwell's. */
  cpuRatio: number
  bare: number
  linkwell: number
  /** Median p99 latency of Linkwell's rounds, in milliseconds. */
  p99: number
  bareP99: number
  /** Linkwell's answers counted by wrk, every round. */
  requests: number
  badStatuses: number
  socketErrors: number
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

interface Target {
  url: string
  pid: number
}

function summarise(rounds: Round[], warmUp: WrkResult): RoundsSummary & { warmUpRequests: number } {
  return {
    rounds,
    ratio: median(rounds.map((round) => round.ratio)),
    cpuRatio: median(rounds.map((round) => round.cpuRatio)),
    bare: median(rounds.map((round) => round.bare.perSecond)),
    linkwell: median(rounds.map((round) => round.linkwell.perSecond)),
    p99: median(rounds.map((round) => round.linkwell.p99)),
    bareP99: median(rounds.map((round) => round.bare.p99)),
    requests: rounds.reduce((sum, round) => sum + round.linkwell.requests, 0),
    badStatuses: rounds.reduce((sum, round) => sum + round.linkwell.badStatuses, 0) + warmUp.badStatuses,
    socketErrors: rounds.reduce((sum, round) => sum + round.linkwell.socketErrors, 0) + warmUp.socketErrors,
    warmUpRequests: warmUp.requests,
  }
}

/**
 * Alternating rounds of the bare server and several Linkwell servers (bare, first, second, bare,
 * second, first, …), each round of each server compared with its round's bare figure.
 * Each server is warmed up first, long enough for the JIT to settle.
 */
export async function alternateMany(options: { bare: Target; linkwell: Target[]; rounds: number; load: Omit<WrkOptions, 'url'> }): Promise<Array<RoundsSummary & { warmUpRequests: number }>> {
  await runWrk({ ...options.load, url: options.bare.url, seconds: 3 })
  const warmUps: WrkResult[] = []
  for (const server of options.linkwell) warmUps.push(await runWrk({ ...options.load, url: server.url, seconds: 5 }))
  const rounds: Round[][] = options.linkwell.map(() => [])
  for (let index = 0; index < options.rounds; index += 1) {
    const pids = [options.bare.pid, ...options.linkwell.map((server) => server.pid)]
    const bare = await measured({ ...options.load, url: options.bare.url }, options.bare.pid, pids)
    // Every other round the servers take their turns in reverse, so none always runs right after the baseline.
    const order = [...options.linkwell.keys()]
    if (index % 2 === 1) order.reverse()
    for (const at of order) {
      const server = options.linkwell[at]!
      const linkwell = await measured({ ...options.load, url: server.url }, server.pid, pids)
      rounds[at]!.push({ bare, linkwell, ratio: linkwell.perSecond / bare.perSecond, cpuRatio: bare.cpuMicroseconds / linkwell.cpuMicroseconds })
    }
  }
  return rounds.map((serverRounds, at) => summarise(serverRounds, warmUps[at]!))
}

/** Runs `rounds` alternating rounds of `seconds` each (after a warm-up of both; Linkwell's long enough for the JIT to settle). */
export async function alternate(options: { bare: Target; linkwell: Target; rounds: number; load: Omit<WrkOptions, 'url'> }): Promise<RoundsSummary & { warmUpRequests: number }> {
  const [summary] = await alternateMany({ ...options, linkwell: [options.linkwell] })
  return summary!
}

const rate = (value: number) => value.toFixed(0).padStart(7)

/** Prints each round's rates, the medians, the ratio against its target and the p99 latencies. */
export function printRounds(label: string, summary: RoundsSummary, target: number): void {
  console.log(`  ${label}`)
  console.log(`    bare node:http   ${summary.rounds.map((round) => rate(round.bare.perSecond)).join(' ')} req/s   median ${rate(summary.bare)}, p99 ${summary.bareP99.toFixed(2)} ms`)
  console.log(`    Linkwell         ${summary.rounds.map((round) => rate(round.linkwell.perSecond)).join(' ')} req/s   median ${rate(summary.linkwell)}, p99 ${summary.p99.toFixed(2)} ms`)
  console.log(`    ratio per round  ${summary.rounds.map((round) => round.ratio.toFixed(2).padStart(7)).join(' ')}         median ${summary.ratio.toFixed(2)} (target ≥ ${target}: ${summary.ratio >= target ? 'met' : 'NOT met'})`)
  console.log(`    CPU µs per answer bare ${summary.rounds.map((round) => round.bare.cpuMicroseconds.toFixed(1)).join(', ')}; Linkwell ${summary.rounds.map((round) => round.linkwell.cpuMicroseconds.toFixed(1)).join(', ')}; CPU-time ratio median ${summary.cpuRatio.toFixed(2)}`)
  if (summary.badStatuses || summary.socketErrors) console.log(`    WARNING: ${summary.badStatuses} answers ≥ 400, ${summary.socketErrors} socket errors`)
}
