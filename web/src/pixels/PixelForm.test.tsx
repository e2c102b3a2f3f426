// The pixel form as a person uses it: the tag checked against the provider's rule from the server,
// with the same words the server uses, and the server's refusals beside their field.
import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { PixelForm } from './PixelForm'
import { validatePixelForm, type PixelFormValues, type PixelProvider } from './pixel-form'
import { setupUser } from '../test-setup'

const providers: PixelProvider[] = [
  { type: 'gtmpixel', label: 'Google Tag Manager', example: 'GTM-K9X2LM7', expected: 'a Google Tag Manager container id like GTM-XXXXXXX', pattern: '^GTM-[A-Z0-9]{4,10}$', flags: 'i' },
  { type: 'fbpixel', label: 'Facebook (Meta) Pixel', example: '123456789012345', expected: 'a Facebook pixel id of 10 to 20 digits like 123456789012345', pattern: '^\\d{10,20}$', flags: '' },
]

function describedText(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

function renderCreate(onSubmit: (values: PixelFormValues) => Promise<unknown>) {
  return render(<PixelForm mode="create" initial={{ type: '', name: '', tag: '' }} providers={providers} submitLabel="Add pixel" onSubmit={onSubmit} onCancel={vi.fn()} />)
}

describe('the pixel form', () => {
  it('refuses a tag of the wrong form with the server’s words, beside the tag', async () => {
    const user = setupUser()
    const onSubmit = vi.fn()
    renderCreate(onSubmit)
    await user.selectOptions(screen.getByLabelText('Provider'), 'gtmpixel')
    await user.type(screen.getByLabelText('Name'), 'Shop')
    await user.type(screen.getByLabelText('Tag'), 'UA-1234')
    await user.click(screen.getByRole('button', { name: 'Add pixel' }))
    expect(describedText(screen.getByLabelText('Tag'))).toContain('Must be a Google Tag Manager container id like GTM-XXXXXXX.')
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('accepts the provider’s form in any letter case where the server does, and sends it trimmed on Enter, as its button does', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockResolvedValue(undefined)
    renderCreate(onSubmit)
    await user.selectOptions(screen.getByLabelText('Provider'), 'gtmpixel')
    await user.type(screen.getByLabelText('Name'), ' Shop ')
    await user.type(screen.getByLabelText('Tag'), ' gtm-abc1234 {Enter}')
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ type: 'gtmpixel', name: 'Shop', tag: 'gtm-abc1234' }))
  })

  it('asks for a provider, a name and a tag', () => {
    expect(validatePixelForm({ type: '', name: ' ', tag: '' }, undefined)).toEqual({ type: 'Choose the provider.', name: 'Enter a name.', tag: 'Enter the tag.' })
    expect(validatePixelForm({ type: 'fbpixel', name: 'x'.repeat(101), tag: '12345' }, providers[1])).toEqual({
      name: 'Use at most 100 characters.',
      tag: 'Must be a Facebook pixel id of 10 to 20 digits like 123456789012345.',
    })
  })

  it('shows the server’s duplicate refusal beside the tag', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(400, 'A pixel with this provider and tag already exists.', { code: 'duplicate', field: 'tag' }))
    render(<PixelForm mode="edit" initial={{ type: 'fbpixel', name: 'Ads', tag: '123456789012345' }} providers={providers} submitLabel="Save pixel" onSubmit={onSubmit} onCancel={vi.fn()} />)
    // The provider is fixed once the pixel exists.
    expect(screen.queryByLabelText('Provider')).toBeNull()
    expect(screen.getByText('Facebook (Meta) Pixel')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Save pixel' }))
    await waitFor(() => expect(describedText(screen.getByLabelText('Tag'))).toContain('A pixel with this provider and tag already exists.'))
  })
})
