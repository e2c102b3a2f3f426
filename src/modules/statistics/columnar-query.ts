// The statistics engine over the columnar store (ADR 022, analytics/columnar-store.ts): the same
// questions as the raw-click module (click-query.ts), answered from DuckDB with one scan per window
// or, for a workspace without filters, from the rollups. The store catches up with the main
// database before every answer, so an answer counts every click committed before it was asked.
// The live minutes stay on the raw clicks: an hour of them is small, and the store may be a second behind.
import type { ColumnarStore } from '../../analytics/columnar-store.js'
import { VALUE_DIMENSIONS, type ValueDimension } from '../../analytics/click-aggregates.js'
import { createClickQuery, type LinkChoice, type LinkCount, type StatisticsEngine } from './click-query.js'
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

export function createColumnarEngine(clicks: RawClickRepository, store: ColumnarStore): StatisticsEngine {
  const rawClicks = createClickQuery(clicks)

  /** The links an account's link, campaign, channel and tag filters leave (all of them at once); undefined: no such filter. */
  async function linksOf(accountId: number, filters: ClickFilters): Promise<number[] | undefined> {
    let kept: Set<number> | undefined = filters.link ? new Set(filters.link) : undefined
    for (const ids of await clicks.linkIdsOfFilters(accountId, filters)) {
      kept = new Set(kept ? ids.filter((id) => kept!.has(id)) : ids)
    }
    return kept ? [...kept] : undefined
  }

  return {
    async figures(scope, window, filters, quarters, choice) {
      await store.catchUp()
      const dimensions: Partial<Record<ValueDimension, readonly string[]>> = {}
      for (const dimension of VALUE_DIMENSIONS) if (filters[dimension]) dimensions[dimension] = filters[dimension]
      const links = 'accountId' in scope ? await linksOf(scope.accountId, filters) : undefined
      const figures = await store.figures({ scope, start: window.start, end: window.end, filters: dimensions, links, quarters, choice })
      const ranked = figures.links?.sort((a, b) => b.clicks - a.clicks || b.id - a.id)
      return {
        slots: figures.slots,
        values: Object.fromEntries(VALUE_DIMENSIONS.map((dimension) => [dimension, figures.values[dimension].sort(byClicksThenValue)])) as Record<ValueDimension, CountedValue[]>,
        ...(ranked ? { links: chosen(ranked, choice) } : {}),
      }
    },

    live: (scope, filters, now) => rawClicks.live(scope, filters, now),
  }
}
