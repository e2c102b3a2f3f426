// Signing in: the form's own checks, the server's refusal, and the way in.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { SignInPage } from './SignInPage'

function renderSignIn() {
  const router = createMemoryRouter([
    { path: '/signin', element: <SignInPage /> },
    { path: '/links', element: <p>Links page</p> },
  ], { initialEntries: [{ pathname: '/signin', state: { from: '/links' } }] })
  render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)
}

describe('the sign-in page', () => {
  it('asks for both fields before sending anything', async () => {
    const user = setupUser()
    renderSignIn()
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(screen.getByText('Enter your e-mail address or username.')).toBeTruthy()
    expect(screen.getByText('Enter your password.')).toBeTruthy()
  })

  it("shows the server's refusal and signs in on the next try, going back where the person was", async () => {
    const user = setupUser()
    const sent: Array<{ body: unknown; csrf: string | null }> = []
    let attempt = 0
    answerWith(async (request) => {
      // What the page offers beside the form (issue 38): sign-up and mail, the identity providers; not a sign-in.
      if (request.method === 'GET' && new URL(request.url).pathname === '/api/auth/oidc/providers') return json(200, { error: 0, data: [] })
      if (request.method === 'GET') return json(200, { error: 0, data: { signup: 'closed', mail: true } })
      sent.push({ body: await request.json(), csrf: request.headers.get('x-linkwell-csrf') })
      attempt += 1
      return attempt === 1
        ? json(401, { error: 1, message: 'The e-mail, username or password is wrong.', code: 'invalid_credentials' })
        : json(200, { error: 0, data: { id: 1, email: 'admin@localhost', username: 'admin', avatar: '', status: 'pro', expires: null, registered: '2026-01-01 00:00:00', planid: 1 } })
    })
    renderSignIn()
    await user.type(screen.getByLabelText('E-mail or username'), 'admin')
    await user.type(screen.getByLabelText('Password'), 'wrong password')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect((await screen.findByRole('alert')).textContent).toContain('password is wrong')

    await user.clear(screen.getByLabelText('Password'))
    await user.type(screen.getByLabelText('Password'), 'right password')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(screen.getByText('Links page')).toBeTruthy())
    expect(sent).toEqual([
      { body: { login: 'admin', password: 'wrong password' }, csrf: '1' },
      { body: { login: 'admin', password: 'right password' }, csrf: '1' },
    ])
  })
})
