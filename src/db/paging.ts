// Runs a filtered query twice: once to count, once for one page of rows.
import type { SelectQueryBuilder } from 'kysely'
import type { Page, PageRequest } from '../core/paging.js'

/**
 * Counts the rows `filtered` matches and fetches one page of them, newest (highest id) first.
 * `filtered` must not select columns yet; `select` adds them.
 */
export async function fetchPage<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  page: PageRequest,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
): Promise<Page<O>> {
  const counted = await (filtered as SelectQueryBuilder<any, any, object>)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  const total = Number((counted as { count: number | string }).count)
  if (total === 0 || page.offset >= total) return { rows: [], total }
  const rows = await select(filtered).limit(page.limit).offset(page.offset).execute()
  return { rows: rows as O[], total }
}
