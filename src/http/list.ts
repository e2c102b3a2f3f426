// The list envelope of every list endpoint (decisions §4).
import type { PageRequest } from '../core/paging.js'

/** Builds `{error: "0", data: {...}}`; `nextpage` is null on the last page and past it. */
export function listEnvelope<K extends string, T>(key: K, page: PageRequest, total: number, items: T[]) {
  const maxpage = Math.ceil(total / page.limit)
  return {
    error: '0' as const,
    data: {
      result: total,
      perpage: page.limit,
      currentpage: page.page,
      nextpage: page.page < maxpage ? page.page + 1 : null,
      maxpage,
      [key]: items,
    } as { result: number; perpage: number; currentpage: number; nextpage: number | null; maxpage: number } & Record<K, T[]>,
  }
}
