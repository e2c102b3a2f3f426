// The campaign form's checks mirror the server's; the server's refusals land beside their field.
import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { CampaignForm } from './CampaignForm'
import { emptyCampaignForm, slugOfRotator, toCampaignCreateBody, toCampaignUpdateBody, validateCampaignForm } from './campaign-form'
import { setupUser } from '../test-setup'

function describedText(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

describe('the campaign form', () => {
  it('checks name and slug as the server does; the name is optional only on create', () => {
    expect(validateCampaignForm(emptyCampaignForm, 'create')).toEqual({})
    expect(validateCampaignForm(emptyCampaignForm, 'edit')).toEqual({ name: 'Enter a name.' })
    expect(validateCampaignForm({ name: 'x', slug: 'ab', isPublic: false }, 'create')).toEqual({ name: 'Use 2 to 100 characters.', slug: 'Use 3 to 64 letters, digits, _ or -.' })
    expect(validateCampaignForm({ name: 'Spring', slug: 'has space', isPublic: false }, 'create').slug).toBeDefined()
    expect(validateCampaignForm({ name: 'Spring', slug: 'spring_sale-2', isPublic: true }, 'edit')).toEqual({})
  })

  it('leaves empty fields out on create and sends an empty slug on update (removes the rotator)', () => {
    expect(toCampaignCreateBody({ name: '  ', slug: '', isPublic: false })).toEqual({ public: false })
    expect(toCampaignCreateBody({ name: ' Spring ', slug: 'spring', isPublic: true })).toEqual({ name: 'Spring', slug: 'spring', public: true })
    expect(toCampaignUpdateBody({ name: 'Spring', slug: '', isPublic: false })).toEqual({ name: 'Spring', slug: '', public: false })
  })

  it('reads the slug back from a rotator URL', () => {
    expect(slugOfRotator('https://go.example.com/r/spring-sale')).toBe('spring-sale')
    expect(slugOfRotator(false)).toBe('')
  })

  it('shows a taken slug beside the slug and a duplicate name beside the name', async () => {
    const user = setupUser()
    const onSubmit = vi.fn()
      .mockRejectedValueOnce(new ApiError(400, 'This slug is currently not available. Please choose another one.', { code: 'duplicate', field: 'slug' }))
      .mockRejectedValueOnce(new ApiError(400, 'You already have a campaign with that name.', { code: 'duplicate', field: 'name' }))
    render(<CampaignForm mode="create" initial={emptyCampaignForm} rotatorBase="https://go.example.com/r/" submitLabel="Create campaign" onSubmit={onSubmit} onCancel={vi.fn()} />)
    await user.type(screen.getByLabelText('Name (optional)'), 'Spring')
    await user.type(screen.getByLabelText('Rotator slug (optional)'), 'spring')
    expect(screen.getByText('Visitors of https://go.example.com/r/spring are sent to the campaign\'s links in turn.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Create campaign' }))
    await waitFor(() => expect(describedText(screen.getByLabelText('Rotator slug (optional)'))).toContain('This slug is currently not available.'))
    await user.click(screen.getByRole('button', { name: 'Create campaign' }))
    await waitFor(() => expect(describedText(screen.getByLabelText('Name (optional)'))).toContain('You already have a campaign with that name.'))
  })

  it('places a field the server quotes', async () => {
    const user = setupUser()
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(400, 'The field "slug" must be 3 to 64 characters of letters, digits, _ and -.', { code: 'validation_failed', field: 'slug' }))
    render(<CampaignForm mode="edit" initial={{ name: 'Spring', slug: 'spring', isPublic: false }} rotatorBase="https://go.example.com/r/" submitLabel="Save changes" onSubmit={onSubmit} onCancel={vi.fn()} />)
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(describedText(screen.getByLabelText('Rotator slug (optional)'))).toContain('Must be 3 to 64 characters'))
  })
})
