// The list envelope of every list endpoint (decisions §4), built by one function per server: its
// `error` is the spec's string "0", or the integer 0 with LIST_ERROR_FORMAT=integer (ADR 013).
import type { PageRequest } from '../core/paging.js'
import type { Config } from '../config.js'

export type ListErrorFormat = Config['listErrorFormat']

/** Builds `{error, data: {...}}`; `nextpage` is null on the last page and past it. */
export type ListEnvelope = ReturnType<typeof createListEnvelope>

/** The list envelope of a server whose lists answer `error` in `format`. */
export function createListEnvelope(format: ListErrorFormat) {
  const error: '0' | 0 = format === 'integer' ? 0 : '0'
  return function listEnvelope<K extends string, T>(key: K, page: PageRequest, total: number, items: T[]) {
    const maxpage = Math.ceil(total / page.limit)
    return {
      error,
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
}
