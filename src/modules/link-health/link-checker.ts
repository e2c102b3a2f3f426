// The broken-link checker (issue 23, docs/adr/026-link-health.md): the served process looks at
// every link's destination at most every LINK_CHECK_INTERVAL_HOURS (6 by default) with
// destination-probe.ts and records what it found on the link (migration 025). Several instances
// share the work through the database: a batch of due links is claimed in one short transaction
// (skippingLockedRows, then pushed to its next time), so each link is checked by one of them; the
// looks themselves happen outside any transaction. Each instance starts at most one look a second
// per host. A link that turns broken, or stops being broken, reports `link.broken` /
// `link.recovered` through the outbox in the transaction that records it, and its cached copies
// are dropped so visits learn of it (its `brokenurl`).
import { ALIAS_TOPIC, type Announcer } from '../../core/invalidation.js'
import { nowTimestamp } from '../../core/time.js'
import type { Bindable } from '../../db/transactions.js'
import { aliasKey } from '../aliases/alias-namespace.js'
import type { EventOutbox } from '../webhooks/event-outbox.js'
import { probeDestination, type LinkHealth, type ProbeResult } from './destination-probe.js'
import type { HostResolver } from '../../core/address-policy.js'
import { backgroundLoop } from '../../core/background-loop.js'
import { pauseFor } from '../../core/pause.js'

const HOUR_MS = 3_600_000

export interface LinkCheckerOptions {
  /** Private, loopback and link-local destinations are looked at too (LINK_CHECK_ALLOW_PRIVATE; tests). */
  allowPrivate: boolean
  /** Hours between two looks at a link (LINK_CHECK_INTERVAL_HOURS). */
  intervalHours: number
  /** Links claimed at a time. */
  batchSize?: number
  /** Least time between two looks this instance starts at one host. */
  hostGapMs?: number
  /** Hosts looked at side by side. */
  concurrency?: number
  /** How long the loop rests when nothing is due. */
  pollMs?: number
  /** Each look's time limit (destination-probe.ts's 10 s by default). */
  timeoutMs?: number
  resolveHost?: HostResolver
  now?: () => Date
  /** The clock of the gap between looks at one host, and its wait (tests: a logical one the waits move). */
  pacing?: { elapsed(): number; wait(ms: number): Promise<void> }
  onError?: (error: unknown) => void
}

/** A link claimed for a look (any account's). */
interface ClaimedLink {
  id: number
  account_id: number
  host: string
  alias: string
  url: string
  health: string
}

/** The links' side of a look: claims and records, in link.repository.ts (the one file that writes links). */
export interface LinkHealthRecords {
  /** Up to `count` links due at `at`, pushed to `nextAt` so no other instance takes them. */
  claimDueForCheck(at: string, nextAt: string, count: number): Promise<ClaimedLink[]>
  /** Records a look while the link still points at `url`; true when it did. */
  recordHealth(id: number, url: string, look: { health: string; status: number | null; checkedAt: string }): Promise<boolean>
}

/** What the checker is handed: the links' claims and records, the outbox, the caches' bus. */
export interface LinkCheckerDependencies {
  links: Bindable<LinkHealthRecords>
  outbox: Pick<EventOutbox, 'emitting'>
  invalidation: Announcer
}

/** What a link's `link.broken` / `link.recovered` event says. */
function eventData(link: ClaimedLink, result: ProbeResult, checkedAt: string) {
  return { id: link.id, alias: link.alias, url: link.url, health: result.health, status: result.status, reason: result.reason, checkedat: checkedAt }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

export function createLinkChecker(options: LinkCheckerDependencies & LinkCheckerOptions) {
  const deps: LinkCheckerDependencies = options
  const now = options.now ?? (() => new Date())
  const batchSize = options.batchSize ?? 20
  const hostGapMs = options.hostGapMs ?? 1000
  const concurrency = options.concurrency ?? 4
  const pollMs = options.pollMs ?? 30_000
  const intervalMs = options.intervalHours * HOUR_MS
  /** When this instance last started a look at each host (pacing); forgotten once older than the gap. */
  const lastLookAt = new Map<string, number>()

  /** Takes up to `batchSize` due links and sets their next time, so no other instance takes them. */
  async function claim(): Promise<ClaimedLink[]> {
    const at = now()
    return deps.links.claimDueForCheck(nowTimestamp(at), nowTimestamp(new Date(at.getTime() + intervalMs)), batchSize)
  }

  const pacing = options.pacing ?? { elapsed: () => Date.now(), wait: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) }

  async function paced(host: string, signal: AbortSignal): Promise<void> {
    for (;;) {
      const last = lastLookAt.get(host)
      const wait = last === undefined ? 0 : last + hostGapMs - pacing.elapsed()
      if (wait <= 0 || signal.aborted) break
      await pacing.wait(wait)
    }
    lastLookAt.set(host, pacing.elapsed())
  }

  /** Records one look; an event and an announcement when the link turned broken or recovered. */
  async function record(link: ClaimedLink, result: ProbeResult): Promise<void> {
    const checkedAt = nowTimestamp(now())
    const wasBroken = link.health === 'broken'
    const isBroken = result.health === 'broken'
    const changed = await deps.outbox.emitting(async (trx, emit) => {
      // Only while the link still points where it was looked at: an edit since then is looked at anew.
      const recorded = await deps.links.in(trx).recordHealth(link.id, link.url, { health: result.health, status: result.status, checkedAt })
      if (!recorded || wasBroken === isBroken) return false
      emit({ accountId: link.account_id, type: isBroken ? 'link.broken' : 'link.recovered', data: eventData(link, result, checkedAt) })
      return true
    })
    // A visit reads the health (`brokenurl`): cached copies of the link are dropped.
    if (changed) deps.invalidation.publish(ALIAS_TOPIC, aliasKey(link.host, link.alias))
  }

  /** The links of one host, one after the other, paced. */
  async function checkHost(host: string, links: ClaimedLink[], signal: AbortSignal): Promise<void> {
    for (const link of links) {
      if (signal.aborted) return
      await paced(host, signal)
      const result = await probeDestination(link.url, { allowPrivate: options.allowPrivate, resolveHost: options.resolveHost, timeoutMs: options.timeoutMs, signal })
      // A look the app's closing cut short says nothing: the link keeps what it had until its next time.
      if (signal.aborted) return
      await record(link, result)
    }
  }

  /** Checks one batch of due links; answers how many were claimed. */
  async function runOnce(signal: AbortSignal = new AbortController().signal): Promise<number> {
    const links = await claim()
    const byHost = new Map<string, ClaimedLink[]>()
    for (const link of links) {
      const host = hostOf(link.url)
      byHost.set(host, [...(byHost.get(host) ?? []), link])
    }
    const hosts = [...byHost.entries()]
    const lanes = Array.from({ length: Math.min(concurrency, hosts.length) }, async () => {
      for (let next = hosts.shift(); next; next = hosts.shift()) await checkHost(next[0], next[1], signal)
    })
    await Promise.all(lanes)
    const cutoff = pacing.elapsed() - hostGapMs
    for (const [host, at] of lastLookAt) if (at < cutoff) lastLookAt.delete(host)
    return links.length
  }

  async function loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let claimed = 0
      try {
        claimed = await runOnce(signal)
      } catch (error) {
        if (!signal.aborted) options.onError?.(error)
      }
      // A full batch suggests more are due: go on at once.
      if (claimed === batchSize || signal.aborted) continue
      await pauseFor(pollMs, signal)
    }
  }

  const background = backgroundLoop(loop)

  return {
    runOnce,
    /** Starts checking in the background (the served app does, on ready); the CLI never does. */
    start(): void {
      background.start()
    },
    /** Stops; looks in flight are cut short, their links keeping what they had until their next time. */
    async stop(): Promise<void> {
      await background.stop()
    },
  }
}

export type LinkChecker = ReturnType<typeof createLinkChecker>
export type { LinkHealth }
