// The date range of a statistics page goes through the forms' submit: checked first, the day at
// fault marked, and only a good range reaches the address (and so the request). A row of a top
// list adds a filter chip, to the address and to the request; its button takes it off again.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { ItemStatistics, rangeProblems } from './ItemStatistics'

const SOCIAL = { facebook: 0, twitter: 0, instagram: 0, linkedin: 0 }

function statisticsOf(search: URLSearchParams) {
  const filtered = search.has('country')
  return {
    from: search.get('from'), to: search.get('to'),
    clicks: filtered ? 3 : 8, uniqueClicks: filtered ? 2 : 6,
    days: [{ date: search.get('from'), clicks: filtered ? 3 : 8, uniqueClicks: filtered ? 2 : 6 }],
    topCountries: filtered ? { Germany: '3' } : { Germany: '3', France: '5' },
    topReferrers: { Direct: filtered ? '3' : '8' }, topBrowsers: { Firefox: filtered ? '3' : '8' }, topOs: {}, topDevices: { desktop: filtered ? '3' : '8' }, topLanguages: { fr: '1' },
    socialCount: SOCIAL,
    ...(search.has('granularity') ? { granularity: search.get('granularity'), timeZone: 'Europe/Berlin', filters: {}, series: [{ date: search.get('from'), start: `${search.get('from')} 00:00:00`, clicks: filtered ? 3 : 8, uniqueClicks: filtered ? 2 : 6 }] } : {}),
  }
}

/** Answers the workspace's settings, the live minutes and the statistics; records the statistics' queries. */
function server(timezone = 'UTC') {
  const asked: string[] = []
  answerWith((request) => {
    const url = new URL(request.url)
    if (url.pathname === '/api/account/settings') return json(200, { error: 0, data: { timezone } })
    if (url.pathname.endsWith('/stats/live')) return json(200, { error: 0, data: { from: '', to: '', clicks: 4, minutes: Array.from({ length: 60 }, (_, index) => ({ minute: `2026-11-28 12:${String(index).padStart(2, '0')}`, clicks: index === 59 ? 4 : 0 })), filters: {} } })
    asked.push(url.search)
    return json(200, { error: 0, data: statisticsOf(url.searchParams) })
  })
  return asked
}

function renderAt(address: string) {
  const router = createMemoryRouter([{ path: '/links/:id/analytics', element: <ItemStatistics item="url" id={1} /> }], { initialEntries: [address] })
  render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><RouterProvider router={router} /></QueryClientProvider>)
  return router
}

describe('the date range', () => {
  it('wants both days, in order, at most 366 of them', () => {
    expect(rangeProblems({ from: '', to: '2026-05-01' })).toEqual({ from: 'Choose both days.' })
    expect(rangeProblems({ from: '2026-05-02', to: '2026-05-01' })).toEqual({ to: 'The first day must come before the last.' })
    expect(rangeProblems({ from: '2025-01-01', to: '2026-05-01' })).toEqual({ to: 'Choose at most 366 days.' })
    expect(rangeProblems({ from: '2026-04-01', to: '2026-05-01' })).toEqual({})
  })

  it('marks the last day when the range is backwards, and asks the server for none of it', async () => {
    const user = setupUser()
    const asked: string[] = []
    answerWith((request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/account/settings') return json(200, { error: 0, data: { timezone: 'UTC' } })
      asked.push(`${url.pathname}${url.search}`)
      return json(404, { error: 1, message: 'Link not found. Please try again.', code: 'not_found' })
    })
    const router = renderAt('/links/1/analytics?from=2026-04-01&to=2026-04-30')
    await waitFor(() => expect(asked.filter((entry) => entry.startsWith('/api/url/1/stats?'))).toEqual(['/api/url/1/stats?from=2026-04-01&to=2026-04-30']))
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-05-10' } })
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('The first day must come before the last.')).toBeTruthy()
    expect(router.state.location.search).toBe('?from=2026-04-01&to=2026-04-30')
    expect(asked.filter((entry) => entry.startsWith('/api/url/1/stats?'))).toHaveLength(1)
  })
})

describe('filter chips', () => {
  it('adds a chip when a row is clicked, asks the API under it, and takes it off with its remove button', async () => {
    const user = setupUser()
    const asked = server()
    const router = renderAt('/links/1/analytics?from=2026-04-01&to=2026-04-30')
    await waitFor(() => expect(screen.getByTestId('range-clicks').textContent).toBe('8'))
    expect(asked).toEqual(['?from=2026-04-01&to=2026-04-30'])
    expect(screen.getByTestId('time-zone-note').textContent).toContain('UTC')

    await user.click(within(screen.getByRole('region', { name: 'Top countries' })).getByRole('button', { name: /Germany/ }))
    expect(router.state.location.search).toBe('?from=2026-04-01&to=2026-04-30&country=Germany')
    await waitFor(() => expect(screen.getByTestId('range-clicks').textContent).toBe('3'))
    expect(asked.at(-1)).toBe('?from=2026-04-01&to=2026-04-30&country=Germany&granularity=day')
    expect(screen.getByText('Country: Germany')).toBeTruthy()

    // A second chip of another dimension, with the page's own words for its value.
    await user.click(within(screen.getByRole('region', { name: 'Devices' })).getByRole('button', { name: /Desktop/ }))
    expect(router.state.location.search).toBe('?from=2026-04-01&to=2026-04-30&country=Germany&device=desktop')
    await user.click(screen.getByRole('button', { name: 'Remove filter Device: Desktop' }))
    expect(router.state.location.search).toBe('?from=2026-04-01&to=2026-04-30&country=Germany')
    await user.click(screen.getByRole('button', { name: 'Remove filter Country: Germany' }))
    expect(router.state.location.search).toBe('?from=2026-04-01&to=2026-04-30')
    await waitFor(() => expect(screen.getByTestId('range-clicks').textContent).toBe('8'))
  })

  it('restores chips, granularity and comparison from the address, and says the workspace\'s time zone', async () => {
    const asked = server('Europe/Berlin')
    renderAt('/links/1/analytics?from=2026-04-01&to=2026-04-30&granularity=week&compare=previous&country=Germany')
    await waitFor(() => expect(screen.getByTestId('range-clicks').textContent).toBe('3'))
    expect(asked).toEqual(['?from=2026-04-01&to=2026-04-30&country=Germany&granularity=week&compare=previous'])
    expect(screen.getByRole('button', { name: 'Remove filter Country: Germany' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Week' }).getAttribute('aria-pressed')).toBe('true')
    expect((screen.getByRole('checkbox', { name: 'Compare with previous period' }) as HTMLInputElement).checked).toBe(true)
    expect(screen.getByTestId('time-zone-note').textContent).toContain('Europe/Berlin')
    expect(screen.getByTestId('live-clicks').textContent).toBe('4')
  })

  it('offers hours only for ranges of at most 31 days', async () => {
    const user = setupUser()
    server()
    const router = renderAt('/links/1/analytics?from=2026-01-01&to=2026-04-30')
    await waitFor(() => expect(screen.getByTestId('range-clicks').textContent).toBe('8'))
    expect((screen.getByRole('button', { name: 'Hour' }) as HTMLButtonElement).disabled).toBe(true)
    await user.click(screen.getByRole('button', { name: '7 days' }))
    await user.click(screen.getByRole('button', { name: 'Hour' }))
    expect(new URLSearchParams(router.state.location.search).get('granularity')).toBe('hour')
    await user.click(screen.getByRole('button', { name: '90 days' }))
    expect(new URLSearchParams(router.state.location.search).get('granularity')).toBe(null)
  })
})

describe('the workspace\'s analytics', () => {
  it('asks GET /api/stats from the raw clicks (its top lists), lists its top links under the same view, and filters by a row', async () => {
    const user = setupUser()
    const asked: string[] = []
    answerWith((request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/account/settings') return json(200, { error: 0, data: { timezone: 'UTC' } })
      if (url.pathname === '/api/stats/live') return json(200, { error: 0, data: { from: '', to: '', clicks: 0, minutes: [], filters: {} } })
      asked.push(`${url.pathname}${url.search}`)
      const filtered = url.searchParams.has('referrer')
      return json(200, {
        error: 0,
        data: {
          ...statisticsOf(url.searchParams),
          clicks: filtered ? 2 : 8,
          topReferrers: filtered ? { 'twitter.com': '2' } : { 'twitter.com': '2', Direct: '6' },
          totals: { links: 2, clicks: 20, uniqueClicks: 10 },
          topLinks: [{ id: 7, alias: 'spring', shorturl: 'https://lw.test/spring', longurl: 'https://example.com/spring', title: 'Spring sale', clicks: filtered ? 2 : 8, uniqueClicks: 1 }],
        },
      })
    })
    const router = createMemoryRouter([{ path: '/analytics', element: <ItemStatistics item="workspace" /> }], { initialEntries: ['/analytics?from=2026-04-01&to=2026-04-30'] })
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><RouterProvider router={router} /></QueryClientProvider>)
    await waitFor(() => expect(screen.getByTestId('range-clicks').textContent).toBe('8'))
    expect(asked).toEqual(['/api/stats?from=2026-04-01&to=2026-04-30&granularity=day'])
    await user.click(within(screen.getByRole('region', { name: 'Referrers' })).getByRole('button', { name: /twitter\.com/ }))
    await waitFor(() => expect(screen.getByTestId('range-clicks').textContent).toBe('2'))
    expect(asked.at(-1)).toBe('/api/stats?from=2026-04-01&to=2026-04-30&referrer=twitter.com&granularity=day')
    const top = within(screen.getByRole('region', { name: 'Top links' }))
    expect(top.getByRole('link', { name: /lw\.test\/spring/ }).getAttribute('href')).toBe('/links/7/analytics?from=2026-04-01&to=2026-04-30&referrer=twitter.com')
    expect(router.state.location.search).toBe('?from=2026-04-01&to=2026-04-30&referrer=twitter.com')
  })
})

describe('a link\'s conversions', () => {
  function answer(figures: object) {
    answerWith((request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/account/settings') return json(200, { error: 0, data: { timezone: 'UTC' } })
      if (url.pathname.endsWith('/stats/live')) return json(200, { error: 0, data: { from: '', to: '', clicks: 0, minutes: [], filters: {} } })
      return json(200, { error: 0, data: { ...statisticsOf(url.searchParams), ...figures } })
    })
  }
  function renderLink(conversions: boolean) {
    const router = createMemoryRouter([{ path: '/links/:id/analytics', element: <ItemStatistics item="url" id={1} conversions={conversions} /> }], { initialEntries: ['/links/1/analytics?from=2026-04-01&to=2026-04-30'] })
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><RouterProvider router={router} /></QueryClientProvider>)
  }

  it('shows leads, sales with their rates and the revenue beside the clicks of a link that tracks them, with the way to its sales', async () => {
    answer({ leads: 2, sales: 1, revenue: { EUR: 4900, USD: 1250 }, conversionRates: { leads: 0.25, sales: 0.125 } })
    renderLink(true)
    await waitFor(() => expect(screen.getByTestId('range-leads').textContent).toBe('2'))
    expect(screen.getByTestId('range-sales').textContent).toBe('1')
    expect(screen.getByTestId('range-revenue').textContent).toBe('€49.00$12.50')
    expect(screen.getByText('25% of clicks')).toBeTruthy()
    expect(screen.getByText('13% of clicks')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Sales and sign-ups' }).getAttribute('href')).toBe('/conversions?from=2026-04-01&to=2026-04-30&link=1')
  })

  it('leaves them out for a link that neither tracks nor has any', async () => {
    answer({ leads: 0, sales: 0, revenue: {}, conversionRates: { leads: 0, sales: 0 } })
    renderLink(false)
    await waitFor(() => expect(screen.getByTestId('range-clicks').textContent).toBe('8'))
    expect(screen.queryByTestId('range-leads')).toBeNull()
    expect(screen.queryByRole('region', { name: 'Conversions for the range' })).toBeNull()
  })
})
