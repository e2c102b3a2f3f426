// Issue 38's pages: the sign-in page offers sign-up only when the server takes it; the reset page
// sends the fragment's token with the new password and goes back to sign-in; a spent link's
// refusal is shown with the way to a new one.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { SignInPage } from './SignInPage'
import { ResetPasswordPage } from './ResetPasswordPage'
import { tokenOfHash } from './auth-queries'

function renderAt(path: string, hash = '') {
  const router = createMemoryRouter([
    { path: '/signin', element: <SignInPage /> },
    { path: '/reset-password', element: <ResetPasswordPage /> },
  ], { initialEntries: [{ pathname: path, hash }] })
  render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)
}

/** The sign-in page's questions: the identity providers (none), and `settings` for sign-up and mail. */
function signInPageAnswers(settings: { signup: string; mail: boolean }, asked?: () => void) {
  answerWith(async (request) => {
    if (new URL(request.url).pathname === '/api/auth/oidc/providers') return json(200, { error: 0, data: [] })
    asked?.()
    return json(200, { error: 0, data: settings })
  })
}

describe('mailed links in the dashboard', () => {
  it('reads the token of #token=…', () => {
    expect(tokenOfHash('#token=abc_DEF-123')).toBe('abc_DEF-123')
    expect(tokenOfHash('')).toBe('')
    expect(tokenOfHash('#something-else')).toBe('')
  })

  it('offers "Create an account" only when sign-up is open', async () => {
    signInPageAnswers({ signup: 'open', mail: true })
    renderAt('/signin')
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/forgot-password')
    expect((await screen.findByRole('link', { name: 'Create an account' })).getAttribute('href')).toBe('/sign-up')
  })

  it('offers no sign-up when it is closed', async () => {
    let asked = false
    signInPageAnswers({ signup: 'closed', mail: true }, () => {
      asked = true
    })
    renderAt('/signin')
    await waitFor(() => expect(asked).toBe(true))
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull()
    // The page itself, not an error boundary in its place.
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy()
  })

  it('sends the new password with the token, and shows a spent link\'s refusal with the way to a new one', async () => {
    const user = setupUser()
    const sent: unknown[] = []
    let attempt = 0
    answerWith(async (request) => {
      sent.push(await request.json())
      attempt += 1
      return attempt === 1
        ? json(410, { error: 1, code: 'link_expired', field: 'token', message: 'This link has expired or has already been used. Ask for a new one.' })
        : json(200, { error: 0, message: 'Your password has been changed. Sign in with the new one.' })
    })
    renderAt('/reset-password', '#token=the-token')
    await user.type(screen.getByLabelText('New password'), 'short')
    await user.click(screen.getByRole('button', { name: 'Set the new password' }))
    expect(screen.getByText('Use at least 8 characters.')).toBeTruthy()
    expect(sent).toEqual([])

    await user.clear(screen.getByLabelText('New password'))
    await user.type(screen.getByLabelText('New password'), 'a long new password')
    await user.type(screen.getByLabelText('Repeat the new password'), 'a long new password')
    await user.click(screen.getByRole('button', { name: 'Set the new password' }))
    expect((await screen.findByRole('alert')).textContent).toContain('Ask for a new one')
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toBeTruthy()
    expect(sent).toEqual([{ token: 'the-token', password: 'a long new password' }])
  })
})
