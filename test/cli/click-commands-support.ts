// Shared by the click command tests: clicks recorded at chosen times through the real recorder and
// writer, and a snapshot of everything a prune must leave alone (aggregates and item counters).
import { expect } from 'vitest'
import { createClickRecorder } from '../../src/analytics/click-recorder.js'
import { fixedSecretHasher } from '../helpers/visitor-hasher.js'
import type { DB } from '../../src/db/database.js'
import type { CliResult } from './cli-runner.js'
import type { ClickEvent } from '../../src/analytics/click-items.js'
import { nowTimestamp } from '../../src/core/time.js'

export const DAY_MS = 86_400_000
const STACK_TRACE = /\n\s+at |node:internal|\.ts:\d+:\d+/

/** Writes the visits through a recorder of its own, in one batch, the last one given last. */
export async function recordClicks(db: DB, events: ClickEvent[]): Promise<void> {
  const recorder = createClickRecorder({ db, visitors: fixedSecretHasher() })
  for (const event of events) recorder.record(event)
  await recorder.close()
  expect(recorder.pending).toBe(0)
}

/** The UTC day `offsetDays` from `time`. */
export function dayAt(time: number, offsetDays = 0): string {
  return nowTimestamp(new Date(time + offsetDays * DAY_MS)).slice(0, 10)
}

/** Every aggregate row and item counter, in a stable order (PostgreSQL may answer bigints as text). */
export async function snapshotAggregates(db: DB) {
  const days = await db.selectFrom('click_days').selectAll().orderBy('item_type').orderBy('item_id').orderBy('day').orderBy('dimension').orderBy('value').execute()
  const totals = await db.selectFrom('click_totals').selectAll().orderBy('item_type').orderBy('item_id').orderBy('dimension').orderBy('value').execute()
  return {
    days: days.map((row) => ({ ...row, clicks: Number(row.clicks) })),
    totals: totals.map((row) => ({ ...row, clicks: Number(row.clicks) })),
    links: await db.selectFrom('links').select(['id', 'clicks', 'unique_clicks']).orderBy('id').execute(),
    qrCodes: await db.selectFrom('qr_codes').select(['id', 'scans']).orderBy('id').execute(),
    campaigns: await db.selectFrom('campaigns').select(['id', 'views']).orderBy('id').execute(),
  }
}

export async function rawClicksOf(db: DB, itemType: string, itemId: number) {
  return db.selectFrom('clicks').select(['id', 'created_at', 'country', 'browser', 'os', 'device', 'language', 'referrer_host', 'is_unique']).where('item_type', '=', itemType as 'link').where('item_id', '=', itemId).orderBy('id').execute()
}

/**
 * The command failed with `code` and said so in one `linkwell: …` line naming `mentions`, on
 * stderr only, without a stack trace; a usage error adds the fixed pointer to --help.
 */
export function expectFailure(result: CliResult, code: 1 | 2, mentions: string, label: string): void {
  expect(result.code, label).toBe(code)
  expect(result.stdout, label).toBe('')
  expect(result.stderr, label).not.toMatch(STACK_TRACE)
  const [message, ...rest] = result.stderr.trimEnd().split('\n')
  expect(message, label).toMatch(/^linkwell: /)
  expect(message, label).toContain(mentions)
  expect(rest, label).toEqual(code === 2 ? ['Run "linkwell --help" for usage.'] : [])
}

/** `{label: "count"}` as a top list shows it: highest count first, ties by stored value, at most 10. */
export function expectedTopList(values: (string | null)[], label: (value: string) => string): Record<string, string> {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value ?? '', (counts.get(value ?? '') ?? 0) + 1)
  const ranked = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).slice(0, 10)
  return Object.fromEntries(ranked.map(([value, clicks]) => [label(value), String(clicks)]))
}
