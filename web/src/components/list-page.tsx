// What the list pages of the account's records share: the page number in the address, the notice
// a form left when it came back here, the record whose deletion is being confirmed, and the body
// (loading, error, empty, or the list with its pagination, dimmed while the next page loads).
import type { UseQueryResult } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { useLocation, useSearchParams } from 'react-router'
import { Pagination } from './Pagination'
import { ErrorMessage, Loading } from './States'

/** The page an address asks for (`?page=2`): 1 when absent or not a whole number from 1 up. The one reading of `?page`. */
export function pageOf(params: URLSearchParams): number {
  const requested = Number(params.get('page'))
  return Number.isInteger(requested) && requested > 0 ? requested : 1
}

/** The page of a list, kept in the address (`?page=2`) so a view can be reloaded and shared; 1 when absent or not a page. */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams()
  const page = pageOf(params)
  // Other parameters (a list's `?tag=` filter) are kept.
  return [page, (next: number) => setParams((current) => {
    const kept = new URLSearchParams(current)
    kept.delete('page')
    if (next !== 1) kept.set('page', String(next))
    return kept
  })]
}

export interface ListPageState<Entry> {
  page: number
  setPage(page: number): void
  /** What the last form said when it brought the person here ("Splash page saved."). */
  notice: string | undefined
  /** The record whose deletion is being confirmed. */
  deleting: Entry | undefined
  setDeleting(entry: Entry | undefined): void
}

export function useListPage<Entry>(): ListPageState<Entry> {
  const [page, setPage] = usePageParam()
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [deleting, setDeleting] = useState<Entry>()
  return { page, setPage, notice, deleting, setDeleting }
}

/** A page of a list as the API answers it (`core/paging.ts`). */
interface ListAnswer {
  result: number
  maxpage: number
}

interface ListPageBodyProps<Answer extends ListAnswer, Entry> {
  query: UseQueryResult<Answer>
  /** The records of an answer (`answer.domains`). */
  entries(answer: Answer): Entry[]
  loadingLabel: string
  /** Shown when the account has none. */
  empty: ReactNode
  state: Pick<ListPageState<Entry>, 'page' | 'setPage'>
  children(entries: Entry[]): ReactNode
}

export function ListPageBody<Answer extends ListAnswer, Entry>({ query, entries, loadingLabel, empty, state, children }: ListPageBodyProps<Answer, Entry>) {
  if (query.isPending) return <Loading label={loadingLabel} />
  if (query.isError) return <ErrorMessage error={query.error} onRetry={() => query.refetch()} />
  const shown = entries(query.data)
  if (shown.length === 0) return <div className="card">{empty}</div>
  return (
    <div className={query.isFetching ? 'card table-card refreshing' : 'card table-card'}>
      {children(shown)}
      <Pagination page={state.page} maxPage={query.data.maxpage} total={query.data.result} onPage={state.setPage} />
    </div>
  )
}
