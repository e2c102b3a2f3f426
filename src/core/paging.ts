// Paging arithmetic of every list (decisions §4); the envelope itself is the transport's.

export const DEFAULT_LIMIT = 15
export const MAX_LIMIT = 100

export interface PageRequest {
  limit: number
  page: number
  offset: number
}

/** One page of rows and how many there are in all. */
export interface Page<T> {
  rows: T[]
  total: number
}

/** Reads `limit` and `page` (already validated as positive integers) and clamps the limit. */
export function toPageRequest(query: { limit?: number; page?: number }): PageRequest {
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT)
  const page = query.page ?? 1
  return { limit, page, offset: (page - 1) * limit }
}
