// What a visitor will see, rendered by the server from the editor's unsaved fields (POST
// /api/splash/preview, /api/overlay/preview) and shown in a sandboxed frame: no script, no
// forms, no navigation out of the frame; the page's own styles and images only.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { api, messageOf, unwrap } from '../api/client'
import type { paths } from '../api/schema'
import './visitor-page-preview.css'

type SplashBody = paths['/api/splash/preview']['post']['requestBody']['content']['application/json']
type OverlayBody = paths['/api/overlay/preview']['post']['requestBody']['content']['application/json']

export type PreviewRequest = { kind: 'splash'; body: SplashBody } | { kind: 'overlay'; body: OverlayBody }

/** `value`, once it has stopped changing for `delay` ms. */
function useSettled<T>(value: T, delay = 350): T {
  const [settled, setSettled] = useState(value)
  const text = JSON.stringify(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(text) as T), delay)
    return () => clearTimeout(timer)
  }, [text, delay])
  return settled
}

async function fetchPreview(request: PreviewRequest): Promise<string> {
  return request.kind === 'splash'
    ? unwrap(api.POST('/api/splash/preview', { body: request.body, parseAs: 'text' }))
    : unwrap(api.POST('/api/overlay/preview', { body: request.body, parseAs: 'text' }))
}

/** The preview of `request`, refreshed a moment after the fields stop changing. */
export function VisitorPagePreview({ request, title, note }: { request: PreviewRequest; title: string; note?: string }) {
  const settled = useSettled(request)
  const preview = useQuery({
    queryKey: ['visitor-preview', settled],
    queryFn: () => fetchPreview(settled),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  })
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
