// The designer as a person uses it: by label, one set of fields per type, the client's checks
// before anything is sent, the server's message beside the field it names, the preview asked for
// only once the design is valid.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import type { ReactElement } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { QrDesigner } from './QrDesigner'
import { emptyQrForm, toCreateBody } from './qr-design'
import type { PreviewRequest } from './qr-preview'
import { setupUser } from '../test-setup'

const previews: Array<PreviewRequest | undefined> = []
vi.mock('./qr-preview', () => ({
  useQrPreview: (request: PreviewRequest | undefined) => {
    previews.push(request)
    return { pending: false, url: request ? 'blob:preview' : undefined }
  },
}))

beforeEach(() => {
  previews.length = 0
})

/** The designer with the query cache its logo upload writes through. */
function renderDesigner(designer: ReactElement) {
  return render(<QueryClientProvider client={new QueryClient()}>{designer}</QueryClientProvider>)
}

describe('the QR designer', () => {
  it('shows the fields of the chosen type and previews once they are valid', async () => {
    const user = setupUser()
    renderDesigner(<QrDesigner initial={emptyQrForm} submitLabel="Create QR code" onSubmit={vi.fn()} />)
    expect(screen.getByLabelText('Destination URL')).toBeTruthy()
    expect(screen.getByText('Fill in the content to see your code.')).toBeTruthy()
    expect(previews.at(-1)).toBeUndefined()

    await user.click(screen.getByRole('radio', { name: 'Wi-Fi' }))
    expect(screen.queryByLabelText('Destination URL')).toBeNull()
    await user.type(screen.getByLabelText('Network name (SSID)'), 'Cafe')
    await user.type(screen.getByLabelText('Wi-Fi password'), 'secret')
    expect(previews.at(-1)).toEqual({ kind: 'new', body: expect.objectContaining({ type: 'wifi', data: { ssid: 'Cafe', pass: 'secret', encryption: 'WPA' } }) })
    expect(screen.getByRole('img', { name: 'QR code preview' }).getAttribute('src')).toBe('blob:preview')

    await user.selectOptions(screen.getByLabelText('Security'), 'nopass')
    expect(screen.queryByLabelText('Wi-Fi password')).toBeNull()
  })

  it('keeps the color picker and the text field in step', async () => {
    const user = setupUser()
    renderDesigner(<QrDesigner initial={emptyQrForm} submitLabel="Create QR code" onSubmit={vi.fn()} />)
    const text = screen.getByLabelText('Foreground color') as HTMLInputElement
    await user.clear(text)
    await user.type(text, 'rgb(20,60,160)')
    expect((screen.getByLabelText('Pick the foreground color') as HTMLInputElement).value).toBe('#143ca0')
  })

  it('refuses to send a form with client errors, and focuses the first one', async () => {
    const user = setupUser()
    const onSubmit = vi.fn()
    renderDesigner(<QrDesigner initial={emptyQrForm} submitLabel="Create QR code" onSubmit={onSubmit} />)
    await user.click(screen.getByRole('button', { name: 'Create QR code' }))
    expect(onSubmit).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toMatch(/need a fix/)
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Destination URL')))
    expect(screen.getByText('Enter the address people should reach.')).toBeTruthy()
  })

  it('shows the server\'s message beside the field it names', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(400, 'The field "data.ssid" must be 1 to 32 characters.', { code: 'validation_failed', field: 'data.ssid' }))
    renderDesigner(<QrDesigner initial={{ ...emptyQrForm, type: 'wifi', wifi: { ssid: 'Cafe', pass: 'pw', encryption: 'WPA' } }} submitLabel="Create QR code" onSubmit={onSubmit} />)
    await user.click(screen.getByRole('button', { name: 'Create QR code' }))
    await waitFor(() => expect(screen.getByLabelText('Network name (SSID)').getAttribute('aria-invalid')).toBe('true'))
    expect(screen.getByText('Must be 1 to 32 characters.')).toBeTruthy()
    expect(toCreateBody(onSubmit.mock.calls[0]![0])).toMatchObject({ type: 'wifi', data: { ssid: 'Cafe', pass: 'pw', encryption: 'WPA' } })
  })

  it('previews an edit with its id and offers downloads of the saved code; the type cannot change', () => {
    renderDesigner(<QrDesigner initial={{ ...emptyQrForm, type: 'text', text: 'Hi' }} saved={{ id: 7, link: 'https://lw.test/qr/abc', name: 'Menu card' }} submitLabel="Save changes" onSubmit={vi.fn()} />)
    expect(screen.queryByRole('radio', { name: 'Wi-Fi' })).toBeNull()
    expect(previews.at(-1)).toMatchObject({ kind: 'update', id: 7, body: { data: 'Hi' } })
    expect(screen.getByRole('link', { name: 'PNG 600 px' }).getAttribute('href')).toBe('https://lw.test/qr/abc?size=600')
    expect(screen.getByRole('link', { name: 'PNG 600 px' }).getAttribute('download')).toBe('menu-card-600.png')
    expect(screen.getByRole('link', { name: 'SVG' }).getAttribute('href')).toBe('https://lw.test/qr/abc?format=svg&size=1000')
  })
})
