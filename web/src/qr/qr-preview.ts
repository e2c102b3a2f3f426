// The designer's live preview: the SERVER draws it (POST /api/qr/preview, or /api/qr/{id}/preview
// while editing), so what is shown is what scans. Asked for a moment after the last change; an
// answer that a newer change overtook is dropped; the image is shown from a blob: URL.
import { useEffect, useRef, useState } from 'react'
import { ApiError, messageOf } from '../api/client'
import { fetchQrPreview, type PreviewRequest } from './qr-queries'

export type { PreviewRequest }

export const PREVIEW_DELAY_MS = 300
export const PREVIEW_SIZE = 300

export interface PreviewState {
  /** blob: URL of the last image drawn, kept while a newer one is on its way. */
  url?: string
  /** Why the current design cannot be drawn (the server's words). */
  error?: string
  /** The server's field of that error (`data.ssid`, `logo`), when it names one. */
  field?: string
  pending: boolean
}

/** The preview of `request`; undefined holds the last image (the form has something to fix first). */
export function useQrPreview(request: PreviewRequest | undefined): PreviewState {
  const [state, setState] = useState<PreviewState>({ pending: request !== undefined })
  const urlRef = useRef<string | undefined>(undefined)
  const key = request === undefined ? undefined : JSON.stringify(request)

  useEffect(() => {
    if (key === undefined || request === undefined) {
      setState((current) => ({ ...current, pending: false }))
      return
    }
    const controller = new AbortController()
    setState((current) => ({ ...current, pending: true }))
    const timer = setTimeout(() => {
      fetchQrPreview(request, PREVIEW_SIZE, controller.signal).then(
        (blob) => {
          if (controller.signal.aborted) return
          const url = URL.createObjectURL(blob)
          if (urlRef.current) URL.revokeObjectURL(urlRef.current)
          urlRef.current = url
          setState({ url, pending: false })
        },
        (error: unknown) => {
          if (controller.signal.aborted) return
          setState((current) => ({ url: current.url, pending: false, error: messageOf(error), field: error instanceof ApiError ? error.field : undefined }))
        },
      )
    }, PREVIEW_DELAY_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
    // `key` stands for `request`: a new object with the same content asks nothing new.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  useEffect(() => () => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current)
  }, [])

  return state
}
