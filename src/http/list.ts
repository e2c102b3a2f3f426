// Paging arithmetic and the list envelope (decisions §4).

export const DEFAULT_LIMIT = 15
export const MAX_LIMIT = 100

export interface PageRequest {
  limit: number
  page: number
  offset: number
}

/** Reads `limit` and `page` (already validated as positive integers) and clamps the limit. */
export function toPageRequest(query: { limit?: number; page?: number }): PageRequest {
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT)
  const page = query.page ?? 1
  return { limit, page, offset: (page - 1) * limit }
}

export interface Page<T> {
  rows: T[]
  total: number
}

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
