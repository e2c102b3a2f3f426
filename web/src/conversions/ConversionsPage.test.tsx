// The conversions page as a marketer meets it: before any sign-up or sale, what to do first (with
// the setup steps a click away); then the funnel with its rates, the revenue in each currency's
// own digits, the times to lead and sale, the rows by link, campaign or channel (a row's click is
// a chip, and the page asks again under it), and the latest sales.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { ConversionsPage } from './ConversionsPage'

const RANGE = 'from=2026-11-01&to=2026-11-30'

/** The queries the page asked the sales list with, each as its parameters. */
const salesAsked = (asked: string[]) => asked.filter((path) => path.startsWith('/api/conversions/sales?')).map((path) => Object.fromEntries(new URLSearchParams(path.slice(path.indexOf('?') + 1))))
const NO_RATES = { leads: 0, sales: 0 }

function renderAt(address: string) {
  const router = createMemoryRouter([
    { path: '/conversions', element: <ConversionsPage /> },
    { path: '/conversions/setup', element: <h1>Setup</h1> },
  ], { initialEntries: [address] })
  render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><RouterProvider router={router} /></QueryClientProvider>)
  return router
}

/** Answers the settings and each conversions endpoint with `answers`; records every conversions request. */
function server(answers: { funnel: (query: URLSearchParams) => unknown; top?: (query: URLSearchParams) => unknown; sales?: unknown }) {
  const asked: string[] = []
  answerWith((request) => {
    const url = new URL(request.url)
    if (url.pathname === '/api/account/settings') return json(200, { error: 0, data: { timezone: 'UTC' } })
    asked.push(`${url.pathname}${url.search}`)
    if (url.pathname === '/api/conversions/funnel') return json(200, { error: 0, data: answers.funnel(url.searchParams) })
    if (url.pathname === '/api/conversions/top' && answers.top) return json(200, { error: 0, data: answers.top(url.searchParams) })
    if (url.pathname === '/api/conversions/sales' && answers.sales) return json(200, { error: '0', data: answers.sales })
    return json(404, { error: 1, message: 'Not found.', code: 'not_found' })
  })
  return asked
}

describe('the conversions page', () => {
  it('says what to do first when nothing was reported, with the setup steps a click away', async () => {
    const user = setupUser()
    const asked = server({ funnel: () => ({ from: '2026-11-01', to: '2026-11-30', clicks: 12, leads: 0, sales: 0, revenue: {}, conversionRates: NO_RATES, timeToLead: null, timeToSale: null }) })
    const router = renderAt(`/conversions?${RANGE}`)
    await screen.findByText('No sign-ups or sales in this range yet')
    expect(screen.getByText(/clicked 12 times in this range, but no website has reported/)).toBeTruthy()
    expect(asked).toEqual([`/api/conversions/funnel?${RANGE}`])
    // No funnel of zeros, no empty tables.
    expect(screen.queryByTestId('funnel-clicks')).toBeNull()
    expect(screen.getByRole('link', { name: 'Add Linkwell\'s script' }).getAttribute('href')).toBe('/conversions/setup#script')
    await user.click(screen.getByRole('link', { name: 'Start the setup' }))
    expect(router.state.location.pathname).toBe('/conversions/setup')
  })

  it('shows the funnel with its rates, the revenue per currency, the times, the rows and the latest sales; a row filters', async () => {
    const user = setupUser()
    const asked = server({
      funnel: (query) => (query.has('campaign')
        ? { from: '2026-11-01', to: '2026-11-30', clicks: 4, leads: 1, sales: 1, revenue: { EUR: 4900 }, conversionRates: { leads: 0.25, sales: 0.25 }, timeToLead: { median: 120, p90: 600 }, timeToSale: { median: 7200, p90: 86400 * 3 } }
        : { from: '2026-11-01', to: '2026-11-30', clicks: 40, leads: 4, sales: 2, revenue: { EUR: 8900, JPY: 1500 }, conversionRates: { leads: 0.1, sales: 0.05 }, timeToLead: { median: 300, p90: 3600 }, timeToSale: null }),
      top: (query) => ({
        from: '2026-11-01', to: '2026-11-30', by: query.get('by'), sort: query.get('sort'), filters: {},
        rows: query.get('by') === 'campaign'
          ? [{ id: 3, name: 'Spring sale', clicks: 4, leads: 1, sales: 1, revenue: { EUR: 4900 } }, { id: 5, name: 'Newsletter', clicks: 36, leads: 3, sales: 1, revenue: { EUR: 4000, JPY: 1500 } }]
          : [{ id: 7, name: 'spring', shorturl: 'https://lw.test/spring', clicks: 40, leads: 4, sales: 2, revenue: { EUR: 8900, JPY: 1500 } }],
      }),
      sales: {
        result: 1, perpage: 10, currentpage: 1, nextpage: null, maxpage: 1,
        sales: [{ id: 9, event: 'sale', date: '2026-11-20 10:00:00', clickid: 'a'.repeat(32), clickedat: '2026-11-20 08:00:00', link: { id: 7, shorturl: 'https://lw.test/spring' }, customer: { id: 'cus_1', name: 'Ada' }, amount: 4900, currency: 'EUR', invoiceid: 'in_1', source: 'stripe' }],
      },
    })
    renderAt(`/conversions?${RANGE}`)
    await waitFor(() => expect(screen.getByTestId('funnel-clicks').textContent).toBe('40'))
    expect(screen.getByTestId('funnel-leads').textContent).toBe('4')
    expect(screen.getByTestId('funnel-sales').textContent).toBe('2')
    expect(screen.getByTestId('funnel-lead-rate').textContent).toBe('10% of clicks')
    expect(screen.getByTestId('funnel-sale-rate').textContent).toBe('5% of clicks')
    expect(screen.getByTestId('funnel-revenue').textContent).toBe('€89.00¥1,500')
    expect(screen.getByTestId('time-to-lead').textContent).toBe('5 min typically · 90% within 1 h')
    expect(screen.getByTestId('time-to-sale').textContent).toBe('None yet')

    const rows = await screen.findByRole('table', { name: 'Conversions by link' })
    expect(within(rows).getAllByRole('row')[1]!.textContent).toContain('€89.00 · ¥1,500')
    const sales = await screen.findByRole('table', { name: 'Latest sales' })
    expect(within(sales).getAllByRole('row')[1]!.textContent).toMatch(/€49\.00.*Ada.*lw\.test\/spring.*in_1 · Stripe/)
    // The range's sales: its days (the workspace's zone, UTC here) as the list's UTC bounds.
    expect(salesAsked(asked)).toContainEqual({ page: '1', limit: '10', from: '2026-11-01 00:00:00', to: '2026-11-30 23:59:59' })
    expect(asked).toContain(`/api/conversions/top?${RANGE}&by=link&sort=revenue&limit=10`)

    // By campaign, then a campaign's row: a chip with its name, and every part asked under it.
    await user.click(within(screen.getByRole('group', { name: 'Group by' })).getByRole('button', { name: 'Campaign' }))
    const byCampaign = await screen.findByRole('table', { name: 'Conversions by campaign' })
    await user.click(within(byCampaign).getByRole('button', { name: 'Spring sale' }))
    await screen.findByRole('button', { name: 'Remove filter Campaign: Spring sale' })
    await waitFor(() => expect(screen.getByTestId('funnel-clicks').textContent).toBe('4'))
    expect(screen.getByTestId('funnel-revenue').textContent).toBe('€49.00')
    expect(asked).toContain(`/api/conversions/funnel?${RANGE}&campaign=3`)
    expect(within(screen.getByRole('table', { name: 'Conversions by campaign' })).getByRole('button', { name: 'Spring sale' }).getAttribute('aria-pressed')).toBe('true')

    // One link's chip: the latest sales are that link's.
    await user.click(within(screen.getByRole('group', { name: 'Group by' })).getByRole('button', { name: 'Link' }))
    await user.click(within(await screen.findByRole('table', { name: 'Conversions by link' })).getByRole('button', { name: 'lw.test/spring' }))
    await screen.findByRole('button', { name: 'Remove filter Link: spring' })
    await waitFor(() => expect(salesAsked(asked)).toContainEqual({ page: '1', limit: '10', from: '2026-11-01 00:00:00', to: '2026-11-30 23:59:59', link: '7' }))
  })
})
