// What a visitor will see, rendered by the server from an editor's unsaved fields (the splash and
// overlay previews: splash-queries.ts, overlay-queries.ts) and shown in a sandboxed frame: no
// script, no forms, no navigation out of the frame; the page's own styles and images only.
import type { UseQueryResult } from '@tanstack/react-query'
import { messageOf } from '../api/client'
import './visitor-page-preview.css'

/** The preview `preview` answered (the page's HTML), refreshed a moment after the fields stop changing. */
export function VisitorPagePreview({ preview, title, note }: { preview: UseQueryResult<string>; title: string; note?: string }) {
  return (
    <section className="card stack visitor-preview" aria-labelledby="visitor-preview-title">
      <div className="section-title">
        <h2 id="visitor-preview-title">Preview</h2>
        {preview.isFetching && <span className="muted small" role="status">Updating…</span>}
      </div>
      {preview.isError && (
        <p className="hint" role="status">The preview shows once the fields are valid: {messageOf(preview.error)}</p>
      )}
      {preview.data !== undefined ? (
        // sandbox with no permissions: the page runs no script and cannot navigate or submit.
        <iframe className={preview.isError ? 'preview-frame stale' : 'preview-frame'} title={title} sandbox="" srcDoc={preview.data} />
      ) : !preview.isError && <div className="preview-frame placeholder" aria-hidden="true" />}
      {note && <p className="hint">{note}</p>}
    </section>
  )
}
