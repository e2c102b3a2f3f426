// The live preview asks the server a moment after the last change, only once, and drops answers
// a newer change overtook; the server's refusal is shown instead of an image.
import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { api } from '../api/client'
import { PREVIEW_DELAY_MS, useQrPreview, type PreviewRequest } from './qr-preview'

function request(data: string): PreviewRequest {
  return { kind: 'new', body: { type: 'text', data } as never }
}

function answer(body: unknown, status = 200) {
  const ok = status < 400
  return Promise.resolve({ data: ok ? body : undefined, error: ok ? undefined : body, response: new Response(null, { status }) })
}

describe('the QR preview', () => {
  let post: MockInstance<typeof api.POST>
  beforeEach(() => {
    vi.useFakeTimers()
    let counter = 0
    URL.createObjectURL = vi.fn(() => `blob:${++counter}`)
    URL.revokeObjectURL = vi.fn()
    post = vi.spyOn(api, 'POST').mockImplementation(() => answer(new Blob(['png'])) as never)
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('asks once, a moment after the last change', async () => {
    const { result, rerender } = renderHook(({ value }) => useQrPreview(value), { initialProps: { value: request('a') } })
    expect(result.current.pending).toBe(true)
    rerender({ value: request('ab') })
    rerender({ value: request('abc') })
    // The same content again asks nothing new.
    rerender({ value: request('abc') })
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS - 10))
    expect(post).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(20))
    expect(post).toHaveBeenCalledTimes(1)
    expect(post.mock.calls[0]![1]).toMatchObject({ body: { data: 'abc' }, params: { query: { size: 300 } }, parseAs: 'blob' })
    expect(result.current).toEqual({ url: 'blob:1', pending: false })
  })

  it('keeps the last image while the form has something to fix, and shows the server\'s refusal', async () => {
    const { result, rerender } = renderHook(({ value }: { value: PreviewRequest | undefined }) => useQrPreview(value), { initialProps: { value: request('a') as PreviewRequest | undefined } })
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS))
    rerender({ value: undefined })
    expect(result.current).toEqual({ url: 'blob:1', pending: false })
    post.mockImplementation(() => answer({ error: 1, message: 'The field "data" is too long to fit in a QR code.', code: 'validation_failed', field: 'data' }, 400) as never)
    rerender({ value: request('x'.repeat(3000)) })
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS))
    expect(result.current).toMatchObject({ url: 'blob:1', pending: false, error: 'The field "data" is too long to fit in a QR code.', field: 'data' })
  })

  it('drops an answer that a newer change overtook', async () => {
    let release: (value: unknown) => void = () => {}
    post.mockImplementationOnce(((_path: string, options: { signal: AbortSignal }) => new Promise((resolve) => {
      release = resolve
      options.signal.addEventListener('abort', () => {})
    })) as never)
    const { result, rerender } = renderHook(({ value }) => useQrPreview(value), { initialProps: { value: request('old') } })
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS))
    rerender({ value: request('new') })
    await act(async () => release({ data: new Blob(['old']), response: new Response(null, { status: 200 }) }))
    expect(result.current.url).toBeUndefined()
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_DELAY_MS))
    expect(result.current).toEqual({ url: 'blob:1', pending: false })
    expect(post).toHaveBeenCalledTimes(2)
  })
})
