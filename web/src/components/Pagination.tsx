// Previous / next through a list envelope's pages.
export function Pagination({ page, maxPage, total, onPage }: { page: number; maxPage: number; total: number; onPage(page: number): void }) {
  if (maxPage <= 1) return null
  return (
    <nav className="pagination" aria-label="Pages">
      <span className="muted small">Page {page} of {maxPage} · {total.toLocaleString()} in all</span>
      <div className="row">
        <button type="button" className="button small" disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
        <button type="button" className="button small" disabled={page >= maxPage} onClick={() => onPage(page + 1)}>Next</button>
      </div>
    </nav>
  )
}
