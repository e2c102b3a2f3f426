// The account's forms: password change and API key creation, checked before sending.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { checkKeyDraft } from './account-forms'
import { PasswordSection } from './PasswordSection'

function renderWithQueries(element: React.ReactElement) {
  render(<QueryClientProvider client={new QueryClient()}>{element}</QueryClientProvider>)
}

describe('changing the password', () => {
  it('wants 8+ characters typed the same twice', async () => {
    const user = setupUser()
    renderWithQueries(<PasswordSection />)
    await user.type(screen.getByLabelText('Current password'), 'old password')
    await user.type(screen.getByLabelText('New password'), 'short')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(screen.getByText('Use at least 8 characters.')).toBeTruthy()

    await user.clear(screen.getByLabelText('New password'))
    await user.type(screen.getByLabelText('New password'), 'a long new password')
    await user.type(screen.getByLabelText('Repeat the new password'), 'a long new passw0rd')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(screen.getByText('The two passwords differ.')).toBeTruthy()
  })

  it("sends the change and shows the server's refusal of the current password beside it", async () => {
    const user = setupUser()
    const bodies: unknown[] = []
    answerWith(async (request) => {
      bodies.push(await request.json())
      return json(400, { error: 1, message: 'The current password is incorrect.', code: 'wrong_password', field: 'current' })
    })
    renderWithQueries(<PasswordSection />)
    await user.type(screen.getByLabelText('Current password'), 'not it')
    await user.type(screen.getByLabelText('New password'), 'a long new password')
    await user.type(screen.getByLabelText('Repeat the new password'), 'a long new password')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    const current = screen.getByLabelText('Current password')
    await waitFor(() => expect(document.getElementById(current.getAttribute('aria-describedby') ?? '')?.textContent).toBe('The current password is incorrect.'))
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBeNull()
    expect(bodies).toEqual([{ current: 'not it', password: 'a long new password' }])
  })

  it('shows the refusal of the new password (the request\'s `password`) beside "New password"', async () => {
    const user = setupUser()
    answerWith(() => json(400, { error: 1, message: 'The field "password" must be at most 256 characters.', code: 'validation_failed', field: 'password' }))
    renderWithQueries(<PasswordSection />)
    await user.type(screen.getByLabelText('Current password'), 'old password')
    await user.type(screen.getByLabelText('New password'), 'a long new password')
    await user.type(screen.getByLabelText('Repeat the new password'), 'a long new password')
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    const next = screen.getByLabelText('New password')
    await waitFor(() => expect(next.getAttribute('aria-invalid')).toBe('true'))
    expect(document.getElementById(next.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent).toBe('Must be at most 256 characters.')
    expect(screen.getByLabelText('Current password').getAttribute('aria-invalid')).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

describe('a new API key', () => {
  it('needs a name and an expiry after today', () => {
    expect(checkKeyDraft({ name: ' ', expires: '' }, '2026-05-01')).toHaveProperty('name')
    expect(checkKeyDraft({ name: 'Zapier', expires: '2026-05-01' }, '2026-05-01')).toHaveProperty('expires')
    expect(checkKeyDraft({ name: 'Zapier', expires: '2026-05-02' }, '2026-05-01')).toEqual({})
  })
})
