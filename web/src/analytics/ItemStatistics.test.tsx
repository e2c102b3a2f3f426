// The date range of a statistics page goes through the forms' submit: checked first, the day at
// fault marked, and only a good range reaches the address (and so the request).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json } from '../test-setup'
import { ItemStatistics, rangeProblems } from './ItemStatistics'

describe('the date range', () => {
  it('wants both days, in order, at most 366 of them', () => {
    expect(rangeProblems({ from: '', to: '2026-05-01' })).toEqual({ from: 'Choose both days.' })
    expect(rangeProblems({ from: '2026-05-02', to: '2026-05-01' })).toEqual({ to: 'The first day must come before the last.' })
    expect(rangeProblems({ from: '2025-01-01', to: '2026-05-01' })).toEqual({ to: 'Choose at most 366 days.' })
    expect(rangeProblems({ from: '2026-04-01', to: '2026-05-01' })).toEqual({})
  })

  it('marks the last day when the range is backwards, and asks the server for none of it', async () => {
    const user = userEvent.setup()
    const asked: string[] = []
    answerWith((request) => {
      asked.push(new URL(request.url).search)
      return json(404, { error: 1, message: 'Link not found. Please try again.', code: 'not_found' })
    })
    const router = createMemoryRouter([{ path: '/links/:id/analytics', element: <ItemStatistics item="url" id={1} /> }], { initialEntries: ['/links/1/analytics?from=2026-04-01&to=2026-04-30'] })
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><RouterProvider router={router} /></QueryClientProvider>)
    await waitFor(() => expect(asked).toEqual(['?from=2026-04-01&to=2026-04-30']))
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-05-10' } })
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('The first day must come before the last.')).toBeTruthy()
    expect(router.state.location.search).toBe('?from=2026-04-01&to=2026-04-30')
    expect(asked).toHaveLength(1)
  })
})
