// The shell asks who is signed in with the session probe: nobody (a 200 with no account) leads to
// the sign-in page, and back afterwards; no request is answered 401 on the way.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json } from '../test-setup'
import { AppShell } from './AppShell'

function SignInStandIn() {
  const from = (useLocation().state as { from?: string } | null)?.from
  return <p>Sign-in page, back to {from}</p>
}

function renderShell(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([
    { path: '/signin', element: <SignInStandIn /> },
    { path: '/', element: <AppShell queryClient={queryClient} />, children: [{ path: 'links', element: <h1>Links</h1> }] },
  ], { initialEntries: [path] })
  render(<QueryClientProvider client={queryClient}><RouterProvider router={router} /></QueryClientProvider>)
}

describe('the shell', () => {
  it('sends a visitor without a session to the sign-in page after one probe answered 200', async () => {
    const asked: string[] = []
    answerWith((request) => {
      asked.push(`${request.method} ${new URL(request.url).pathname}`)
      return json(200, { error: 0, data: null })
    })
    renderShell('/links?page=2')
    expect((await screen.findByText(/Sign-in page/)).textContent).toBe('Sign-in page, back to /links?page=2')
    expect(asked).toEqual(['GET /api/auth/session'])
  })

  it('shows the page to a signed-in account', async () => {
    const account = { id: 1, email: 'admin@example.com', username: 'admin', avatar: '', status: 'pro', expires: null, registered: '2026-01-01 00:00:00', planid: 1 }
    answerWith((request) => {
      const path = new URL(request.url).pathname
      if (path === '/api/auth/session') return json(200, { error: 0, data: account })
      if (path === '/api/account/limits') return json(200, { error: 0, data: { admin: false, resources: [] } })
      throw new Error(`unexpected ${path}`)
    })
    renderShell('/links')
    expect(await screen.findByRole('heading', { name: 'Links' })).toBeTruthy()
    expect(screen.getByText('admin@example.com')).toBeTruthy()
  })
})
