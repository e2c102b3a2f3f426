// The webhook form: address and events checked as the server checks them, the event picker's
// group and "every event" boxes, the events sent in the server's order, and the server's refusal
// shown beside its field.
import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { WebhookForm } from './WebhookForm'
import { ALL_EVENTS } from './webhook-events'
import { validateWebhookForm, webhookFieldOf } from './webhook-form'
import { setupUser } from '../test-setup'

describe('the webhook form', () => {
  it('checks the address, the description and the events as the server does', () => {
    expect(validateWebhookForm({ url: 'https://hooks.example.com/x', description: '', events: ['link.created'] })).toEqual({})
    expect(validateWebhookForm({ url: 'ftp://example.com', description: 'd'.repeat(501), events: [] })).toEqual({
      url: 'Enter the http or https address that receives the events.',
      description: 'At most 500 characters.',
      events: 'Choose at least one event.',
    })
  })

  it('shows the server\'s refusal of one event beside the list', () => {
    expect(['url', 'events', 'events.3', 'description', 'custom'].map(webhookFieldOf)).toEqual(['url', 'events', 'events', 'description', undefined])
  })

  it('picks a group or every event, and sends them in the server\'s order', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockResolvedValue(undefined)
    render(<WebhookForm mode="create" initial={{ url: '', description: '', events: [] }} submitLabel="Add webhook" onSubmit={onSubmit} onCancel={vi.fn()} />)
    await user.type(screen.getByLabelText('Endpoint URL'), ' https://crm.example.com/hook ')
    await user.click(screen.getByRole('checkbox', { name: /contact\.submitted/ }))
    await user.click(screen.getByRole('checkbox', { name: 'All qr codes events' }))
    expect((screen.getByRole('checkbox', { name: /qr\.scanned/ }) as HTMLInputElement).checked).toBe(true)
    await user.click(screen.getByRole('button', { name: 'Add webhook' }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ url: 'https://crm.example.com/hook', description: '', events: ['qr.created', 'qr.updated', 'qr.deleted', 'qr.scanned', 'contact.submitted'] }))

    await user.click(screen.getByRole('checkbox', { name: 'Every event' }))
    await user.click(screen.getByRole('button', { name: 'Add webhook' }))
    await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ events: ALL_EVENTS })))
    await user.click(screen.getByRole('checkbox', { name: 'Every event' }))
    expect(screen.getAllByRole('checkbox').filter((box) => (box as HTMLInputElement).checked)).toEqual([])
  })

  it('refuses an empty pick before sending, and shows the server\'s refusal beside the address', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(400, 'The field "url" must not point at a private, loopback, link-local or reserved address.', { code: 'validation_failed', field: 'url' }))
    render(<WebhookForm mode="edit" initial={{ url: 'http://10.0.0.5/hook', description: '', events: [] }} submitLabel="Save webhook" onSubmit={onSubmit} onCancel={vi.fn()} />)
    await user.click(screen.getByRole('button', { name: 'Save webhook' }))
    await screen.findByText('Choose at least one event.')
    expect(onSubmit).not.toHaveBeenCalled()
    await user.click(screen.getByRole('checkbox', { name: /link\.created/ }))
    expect(screen.queryByText('Choose at least one event.')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Save webhook' }))
    await screen.findByText('Must not point at a private, loopback, link-local or reserved address.')
    expect(screen.getByLabelText('Endpoint URL').getAttribute('aria-invalid')).toBe('true')
  })
})
