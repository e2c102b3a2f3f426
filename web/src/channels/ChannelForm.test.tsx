// The channel form: name and color checked as the server checks them, a swatch or the picker sets
// the color, the server's refusals land beside their field.
import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { ChannelForm } from './ChannelForm'
import { emptyChannelForm, longHexColor, validateChannelForm } from './channel-form'
import { setupUser } from '../test-setup'

function describedText(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

describe('the channel form', () => {
  it('checks name, description and color as the server does', () => {
    expect(validateChannelForm({ ...emptyChannelForm, name: 'Instagram' })).toEqual({})
    expect(validateChannelForm({ name: 'x', description: 'd'.repeat(501), color: 'red', starred: false })).toEqual({
      name: 'Use 2 to 100 characters.',
      description: 'Use at most 500 characters.',
      color: 'Use a HEX color like #1e90ff or #fff.',
    })
    expect(validateChannelForm({ ...emptyChannelForm, name: 'Short', color: '#FFF' })).toEqual({})
  })

  it('widens a short color for the picker', () => {
    expect(longHexColor('#AbC')).toBe('#aabbcc')
    expect(longHexColor('#1E90FF')).toBe('#1e90ff')
  })

  it('sends the chosen swatch, the description and the star', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockResolvedValue(undefined)
    render(<ChannelForm mode="create" initial={emptyChannelForm} submitLabel="Create channel" onSubmit={onSubmit} onCancel={vi.fn()} />)
    await user.type(screen.getByLabelText('Name'), 'Newsletter')
    await user.type(screen.getByLabelText('Description (optional)'), 'Monthly')
    await user.click(screen.getByRole('button', { name: 'Use #10b981' }))
    expect((screen.getByLabelText('Color', { exact: true }) as HTMLInputElement).value).toBe('#10b981')
    await user.click(screen.getByLabelText(/Starred/))
    await user.click(screen.getByRole('button', { name: 'Create channel' }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'Newsletter', description: 'Monthly', color: '#10b981', starred: true }))
  })

  it('sends the form when Enter is pressed in a field, as its button does', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockResolvedValue(undefined)
    render(<ChannelForm mode="create" initial={emptyChannelForm} submitLabel="Create channel" onSubmit={onSubmit} onCancel={vi.fn()} />)
    await user.type(screen.getByLabelText('Name'), 'Newsletter{Enter}')
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ name: 'Newsletter' })
    // A mistake stops Enter as it stops the button, and says so.
    await user.clear(screen.getByLabelText('Name'))
    await user.type(screen.getByLabelText('Name'), 'x{Enter}')
    expect(describedText(screen.getByLabelText('Name'))).toContain('Use 2 to 100 characters.')
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })

  it('refuses a bad color before sending, and shows the server’s duplicate name beside the name', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(400, 'You already have a channel with this name.', { code: 'duplicate', field: 'name' }))
    render(<ChannelForm mode="edit" initial={{ name: 'Print', description: '', color: '#abc', starred: false }} submitLabel="Save changes" onSubmit={onSubmit} onCancel={vi.fn()} />)
    const color = screen.getByLabelText('Color', { exact: true })
    await user.clear(color)
    await user.type(color, '#12')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(describedText(color)).toContain('Use a HEX color like #1e90ff or #fff.')
    expect(onSubmit).not.toHaveBeenCalled()
    await user.clear(color)
    await user.type(color, '#123')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(describedText(screen.getByLabelText('Name'))).toContain('You already have a channel with this name.'))
  })
})
