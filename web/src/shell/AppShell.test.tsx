// The shell asks who is signed in with the session probe: nobody (a 200 with no account) leads to
// the sign-in page, and back afterwards; no request is answered 401 on the way, signing out included.
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router'
import { describe, expect, it } from 'vitest'
import { api, unwrap } from '../api/client'
import { answerWith, json, setupUser } from '../test-setup'
import { AppShell } from './AppShell'

const account = { id: 1, email: 'admin@example.com', username: 'admin', avatar: '', status: 'pro', expires: null, registered: '2026-01-01 00:00:00', planid: 1 }

function SignInStandIn() {
  const state = useLocation().state as { from?: string; signedOut?: boolean } | null
  return <p>{state?.signedOut ? 'Sign-in page, signed out' : `Sign-in page, back to ${state?.from}`}</p>
}

/** A page that asks the server something, as the overview asks for its statistics. */
function StatisticsPage() {
  const statistics = useQuery({ queryKey: ['stats'], queryFn: async () => (await unwrap(api.GET('/api/stats'))).data })
  return <h1>{statistics.isPending ? 'Adding up' : 'Statistics'}</h1>
}

function renderShell(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([
    { path: '/signin', element: <SignInStandIn /> },
    {
      path: '/',
      element: <AppShell />,
      children: [{ path: 'links', element: <h1>Links</h1> }, { path: 'statistics', element: <StatisticsPage /> }],
    },
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

  // A request the server read after the logout would be refused: the browser logs the 401 (a browser
  // walk failed so, signing out while the overview was still loading).
  it('signs out only once the requests already sent are answered, and asks nothing more', async () => {
    const user = setupUser()
    const seen: string[] = []
    let answerStatistics: (() => void) | undefined
    answerWith(async (request) => {
      const path = new URL(request.url).pathname
      seen.push(`${request.method} ${path}`)
      if (path === '/api/auth/session') return json(200, { error: 0, data: account })
      if (path === '/api/account/limits') return json(200, { error: 0, data: { admin: false, resources: [] } })
      if (path === '/api/workspaces') return json(200, { error: 0, data: { workspaces: [{ id: 1, name: 'acme', role: 'owner', current: true }] } })
      if (path === '/api/auth/logout') return json(200, { error: 0 })
      if (path !== '/api/stats') throw new Error(`unexpected ${path}`)
      // The statistics are answered when the test says: after the person has clicked Sign out.
      await new Promise<void>((resolve) => (answerStatistics = resolve))
      seen.push('answered /api/stats')
      return json(200, { error: 0, data: {} })
    })
    renderShell('/statistics')
    await screen.findByRole('heading', { name: 'Adding up' })
    await screen.findByRole('link', { name: '+ Create link' })

    await user.click(screen.getByRole('button', { name: 'Sign out' }))
    expect(seen).not.toContain('POST /api/auth/logout')
    expect(screen.getByText('Signing out…')).toBeTruthy()
    answerStatistics!()
    expect((await screen.findByText(/Sign-in page/)).textContent).toBe('Sign-in page, signed out')
    // The logout went last, after the answer to what the page had asked.
    expect(seen.slice(seen.indexOf('answered /api/stats'))).toEqual(['answered /api/stats', 'POST /api/auth/logout'])
  })
})
