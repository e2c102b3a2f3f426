// The statistics engine over ClickHouse (issue 40, ADR 035, analytics/clickhouse-store.ts): the
// same questions as the raw-click module (click-query.ts) and the DuckDB one (columnar-query.ts),
// live minutes included, answered from ClickHouse by every instance. The instance that holds the
// feeder's lease (or can take it) copies what is new before it answers, so it counts every click
// committed before the question; the others answer from what the feeder has copied (a second or
// so behind). ClickHouse away or slow: the question fails with a 503 (StatisticsStoreUnavailableError).
import type { ClickhouseFeeder } from '../../analytics/clickhouse-feeder.js'
import type { ClickhouseStore } from '../../analytics/clickhouse-store.js'
import { StatisticsStoreUnavailableError } from '../../analytics/clickhouse-store.js'
import { VALUE_DIMENSIONS, type ValueDimension } from '../../analytics/click-aggregates.js'
import { MINUTE_MS, nowTimestamp } from '../../core/time.js'
import type { LinkChoice, LinkCount, StatisticsEngine } from './click-query.js'
import type { ClickFilters } from './click-query-params.js'
import type { RawClickRepository } from './raw-click.repository.js'
import type { CountedValue } from './statistics.repository.js'

/** The links a choice asks for, of links ranked most clicked first. */
function chosen(ranked: LinkCount[], choice: LinkChoice | undefined): LinkCount[] {
  if (!choice) return ranked
  if ('top' in choice) return ranked.slice(0, choice.top)
  const only = new Set(choice.only)
  return ranked.filter((link) => only.has(link.id))
}

/** Most clicked first, ties by value (code unit order). */
const byClicksThenValue = (a: CountedValue, b: CountedValue) => b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)

export function createClickhouseEngine(clicks: RawClickRepository, store: ClickhouseStore, feeder: Pick<ClickhouseFeeder, 'round'>): StatisticsEngine {
  /** The links an account's link, campaign, channel and tag filters leave (all of them at once); undefined: no such filter. */
  async function linksOf(accountId: number, filters: ClickFilters): Promise<number[] | undefined> {
    let kept: Set<number> | undefined = filters.link ? new Set(filters.link) : undefined
    for (const ids of await clicks.linkIdsOfFilters(accountId, filters)) {
      kept = new Set(kept ? ids.filter((id) => kept!.has(id)) : ids)
    }
    return kept ? [...kept] : undefined
  }

  /** Copies what is new when this instance may feed; ClickHouse away: the answer fails as the question would. */
  async function caughtUp(): Promise<void> {
    try {
      await feeder.round()
    } catch (error) {
      throw new StatisticsStoreUnavailableError(error)
    }
  }

  const dimensionsOf = (filters: ClickFilters) => {
    const dimensions: Partial<Record<ValueDimension, readonly string[]>> = {}
    for (const dimension of VALUE_DIMENSIONS) if (filters[dimension]) dimensions[dimension] = filters[dimension]
    return dimensions
  }

  return {
    async figures(scope, window, filters, quarters, choice) {
      await caughtUp()
      const links = 'accountId' in scope ? await linksOf(scope.accountId, filters) : undefined
      const figures = await store.figures({ scope, start: window.start, end: window.end, filters: dimensionsOf(filters), links, quarters, choice })
      const ranked = figures.links?.sort((a, b) => b.clicks - a.clicks || b.id - a.id)
      return {
        slots: figures.slots,
        values: Object.fromEntries(VALUE_DIMENSIONS.map((dimension) => [dimension, figures.values[dimension].sort(byClicksThenValue)])) as Record<ValueDimension, CountedValue[]>,
        ...(ranked ? { links: chosen(ranked, choice) } : {}),
      }
    },

    async live(scope, filters, now) {
      await caughtUp()
      const end = Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS
      const window = { start: end - 60 * MINUTE_MS, end }
      const links = 'accountId' in scope ? await linksOf(scope.accountId, filters) : undefined
      const counts = await store.minutes({ scope, start: window.start, end: window.end, filters: dimensionsOf(filters), links, quarters: false })
      const perMinute = []
      for (let time = window.start; time < window.end; time += MINUTE_MS) {
        const minute = nowTimestamp(new Date(time)).slice(0, 16)
        perMinute.push({ minute, clicks: counts.get(minute) ?? 0 })
      }
      return { from: nowTimestamp(new Date(window.start)), to: nowTimestamp(new Date(window.end)), clicks: perMinute.reduce((sum, { clicks }) => sum + clicks, 0), minutes: perMinute }
    },
  }
}
