// The overview: totals, the daily series and the top links all come from one GET /api/stats
// (no adding up of links in the browser); the latest links from GET /api/urls.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json } from '../test-setup'
import { OverviewPage } from './OverviewPage'

function day(date: string, clicks: number, uniqueClicks: number) {
  return { date, clicks, uniqueClicks }
}

function topLink(id: number, clicks: number) {
  return { id, alias: `top${id}`, shorturl: `https://lw.test/top${id}`, longurl: `https://example.com/${id}`, title: null, clicks, uniqueClicks: clicks }
}

function statsOf(data: Record<string, unknown>) {
  return json(200, {
    error: 0,
    data: { from: '2026-03-01', to: '2026-03-03', clicks: 0, uniqueClicks: 0, days: [], totals: { links: 0, clicks: 0, uniqueClicks: 0 }, topLinks: [], ...data },
  })
}

function renderOverview(answer: (url: URL) => Response): string[] {
  const requests: string[] = []
  answerWith((request) => {
    const url = new URL(request.url)
    requests.push(`${url.pathname}${url.search}`)
    return answer(url)
  })
  const router = createMemoryRouter([{ path: '/', element: <OverviewPage /> }], { initialEntries: ['/'] })
  render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)
  return requests
}

describe('the overview', () => {
  it("shows the account's totals, its last 30 days and the range's top links, from one request", async () => {
    const requests = renderOverview((url) => {
      if (url.pathname === '/api/stats') {
        return statsOf({
          clicks: 1_290,
          uniqueClicks: 700,
          days: [day('2026-03-01', 90, 50), day('2026-03-02', 0, 0), day('2026-03-03', 1_200, 650)],
          totals: { links: 42, clicks: 12_345, uniqueClicks: 6_789 },
          topLinks: [topLink(9, 700), topLink(3, 300), topLink(5, 150), topLink(1, 80), topLink(2, 40), topLink(7, 20), topLink(8, 1)],
        })
      }
      if (url.pathname === '/api/urls') return json(200, { error: '0', data: { result: 0, perpage: 5, currentpage: 1, nextpage: null, maxpage: 0, urls: [] } })
      if (url.pathname === '/api/stats/live') return json(200, { error: 0, data: { from: '', to: '', clicks: 3, minutes: Array.from({ length: 60 }, (_, index) => ({ minute: `2026-03-03 10:${String(index).padStart(2, '0')}`, clicks: index === 58 ? 3 : 0 })), filters: {} } })
      throw new Error(`unexpected request ${url.pathname}`)
    })

    const totals = await screen.findByRole('region', { name: 'Totals' })
    expect(within(totals).getByText('42')).toBeTruthy()
    expect(within(totals).getByText('12,345')).toBeTruthy()
    expect(within(totals).getByText('6,789')).toBeTruthy()
    expect(screen.getByText('1,290 clicks, 700 unique')).toBeTruthy()
    // The chart's table for screen readers holds the server's days as they are.
    const table = screen.getByRole('table', { name: 'Clicks and unique clicks per day over the last 30 days' })
    const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))
    expect(rows).toEqual([['2026-03-01', '90', '50'], ['2026-03-02', '0', '0'], ['2026-03-03', '1200', '650']])

    const top = within(screen.getByRole('region', { name: 'Top links, last 30 days' }))
    const items = top.getAllByRole('listitem')
    expect(items).toHaveLength(5)
    expect(items.map((item) => within(item).getByRole('link').getAttribute('href'))).toEqual(['/links/9/analytics', '/links/3/analytics', '/links/5/analytics', '/links/1/analytics', '/links/2/analytics'])
    expect(items[0]!.textContent).toContain('700 clicks')

    // The live counter: the workspace's last 60 minutes.
    expect((await screen.findByTestId('live-clicks')).textContent).toBe('3')
    expect(screen.getByText(/Busiest minute: 3 at 10:58 UTC/)).toBeTruthy()

    expect(requests.filter((request) => request.startsWith('/api/stats'))).toEqual(['/api/stats', '/api/stats/live'])
    expect(requests.some((request) => /^\/api\/url\/\d+\/stats/.test(request))).toBe(false)
  })

  it('welcomes an account without links', async () => {
    renderOverview((url) => {
      if (url.pathname === '/api/stats') return statsOf({})
      throw new Error(`unexpected request ${url.pathname}`)
    })
    expect(await screen.findByText('Welcome to Linkwell')).toBeTruthy()
  })

  it('says so when no link was clicked in the range', async () => {
    renderOverview((url) => {
      if (url.pathname === '/api/stats') return statsOf({ totals: { links: 2, clicks: 5, uniqueClicks: 4 }, days: [day('2026-03-01', 0, 0)] })
      if (url.pathname === '/api/stats/live') return json(200, { error: 0, data: { from: '', to: '', clicks: 0, minutes: [], filters: {} } })
      return json(200, { error: '0', data: { result: 0, perpage: 5, currentpage: 1, nextpage: null, maxpage: 0, urls: [] } })
    })
    expect(await screen.findByText('No clicks in the last 30 days')).toBeTruthy()
    expect(screen.getByText('0 clicks, 0 unique')).toBeTruthy()
  })
})
