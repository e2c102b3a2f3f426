// The links table: the server's page rendered, search sent as `q` and the campaign, channel and
// domain filters as their ids, deletion only after the confirmation (Escape backs out), with the
// CSRF header a session's unsafe request needs, and the plan usage asked again once a link is gone.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { UsageNote } from '../usage/plan-usage'
import { LinksPage } from './LinksPage'

const link = {
  id: 4, alias: 'spring', shorturl: 'https://lw.test/spring', longurl: 'https://example.com/spring', title: 'Spring sale', description: null,
  clicks: 12, uniqueclicks: 9, date: '2026-03-01 10:00:00', domain: null, campaign: null, pixels: [], type: 'direct', expiry: null, password: false, tags: [],
  health: { state: 'ok', status: 200, checkedat: '2026-03-02 08:00:00' },
}

function listOf(key: string, items: unknown[]) {
  return json(200, { error: '0', data: { result: items.length, perpage: 15, currentpage: 1, nextpage: null, maxpage: items.length ? 1 : 0, [key]: items } })
}

describe('the links page', () => {
  it('lists links with their clicks, searches, and deletes only once confirmed', async () => {
    const user = setupUser()
    const requests: string[] = []
    let deleted = false
    answerWith((request) => {
      const url = new URL(request.url)
      requests.push(`${request.method} ${url.pathname}${url.search}${request.headers.get('x-linkwell-csrf') ? ' csrf' : ''}`)
      if (url.pathname === '/api/urls') return listOf('urls', deleted ? [] : [link])
      if (url.pathname === '/api/url/4/delete') {
        deleted = true
        return json(200, { error: 0, message: 'Link has been deleted successfully.' })
      }
      return listOf(url.pathname.slice(5), [])
    })
    const router = createMemoryRouter([{ path: '/links', element: <LinksPage /> }], { initialEntries: ['/links'] })
    render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)

    const row = (await screen.findByRole('link', { name: 'lw.test/spring' })).closest('tr')!
    expect(within(row).getByText('12')).toBeTruthy()
    expect(within(row).getByText('9 unique')).toBeTruthy()

    await user.type(screen.getByLabelText('Search'), 'spr')
    await waitFor(() => expect(requests).toContain('GET /api/urls?limit=15&page=1&order=date&q=spr'))

    await user.click(within(row).getByRole('button', { name: 'Delete lw.test/spring' }))
    expect(screen.getByRole('alertdialog', { name: 'Delete this link?' })).toBeTruthy()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(requests.some((request) => request.startsWith('DELETE'))).toBe(false)

    await user.click(within(row).getByRole('button', { name: 'Delete lw.test/spring' }))
    await user.click(screen.getByRole('button', { name: 'Delete link' }))
    await waitFor(() => expect(screen.getByText('No links match')).toBeTruthy())
    expect(requests).toContain('DELETE /api/url/4/delete csrf')
  })

  it('asks for the plan usage again once a link is deleted', async () => {
    const user = setupUser()
    let links = [link]
    let usageAsked = 0
    answerWith((request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/urls') return listOf('urls', links)
      if (url.pathname === '/api/url/4/delete') {
        links = []
        return json(200, { error: 0, message: 'Link has been deleted successfully.' })
      }
      if (url.pathname === '/api/account/limits') {
        usageAsked += 1
        return json(200, { error: 0, data: { admin: false, resources: [{ resource: 'links', used: links.length + 2, limit: 10 }] } })
      }
      return listOf(url.pathname.slice(5), [])
    })
    // The usage the list pages and the account page show, from the same cache as the table.
    const router = createMemoryRouter([{ path: '/links', element: <><UsageNote resource="links" /><LinksPage /></> }], { initialEntries: ['/links'] })
    render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)
    expect((await screen.findByTestId('usage-links')).textContent).toBe('3 of 10 links')

    const row = (await screen.findByRole('link', { name: 'lw.test/spring' })).closest('tr')!
    await user.click(within(row).getByRole('button', { name: 'Delete lw.test/spring' }))
    await user.click(screen.getByRole('button', { name: 'Delete link' }))
    await waitFor(() => expect(screen.getByText('No links yet')).toBeTruthy())
    // The dialog closes once the lists and the usage have been asked again.
    expect(usageAsked).toBe(2)
    expect(screen.getByTestId('usage-links').textContent).toBe('2 of 10 links')
  })

  it('sends the filters to the server as ids and shows its page and count', async () => {
    const user = setupUser()
    const requests: string[] = []
    answerWith((request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/urls') {
        requests.push(url.search)
        // The server's own count of the filtered links, beyond this page.
        return json(200, { error: '0', data: { result: 31, perpage: 15, currentpage: 1, nextpage: 2, maxpage: 3, urls: [link] } })
      }
      if (url.pathname === '/api/campaigns') return listOf('campaigns', [{ id: 3, name: 'Spring' }])
      if (url.pathname === '/api/channels') return listOf('channels', [{ id: 7, name: 'Newsletter' }])
      if (url.pathname === '/api/domains') return listOf('domains', [{ id: 5, domain: 'https://go.example.com' }])
      throw new Error(`unexpected request ${url.pathname}`)
    })
    // An older address's domain=main is no id: it is dropped rather than sent.
    const router = createMemoryRouter([{ path: '/links', element: <LinksPage /> }], { initialEntries: ['/links?campaign=3&domain=main'] })
    render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)

    await screen.findByRole('link', { name: 'lw.test/spring' })
    expect(requests).toEqual(['?limit=15&page=1&order=date&campaign=3'])
    await screen.findByRole('option', { name: 'Newsletter' })
    await screen.findByRole('option', { name: 'go.example.com' })
    expect((screen.getByLabelText('Campaign') as HTMLSelectElement).value).toBe('3')

    await user.selectOptions(screen.getByLabelText('Channel'), 'Newsletter')
    await waitFor(() => expect(requests.at(-1)).toBe('?limit=15&page=1&order=date&campaign=3&channel=7'))
    await user.selectOptions(screen.getByLabelText('Domain'), 'Main domain')
    await waitFor(() => expect(requests.at(-1)).toBe('?limit=15&page=1&order=date&campaign=3&channel=7&domain=0'))
    await user.selectOptions(screen.getByLabelText('Domain'), 'go.example.com')
    await waitFor(() => expect(requests.at(-1)).toBe('?limit=15&page=1&order=date&campaign=3&channel=7&domain=5'))
    expect(router.state.location.search).toBe('?campaign=3&channel=7&domain=5')
    expect(screen.getByText('Page 1 of 3 · 31 in all')).toBeTruthy()
    // One request per change: nothing is read beyond the page shown.
    expect(requests).toHaveLength(4)
  })

  it('marks broken links and filters them with health=broken in the address', async () => {
    const user = setupUser()
    const requests: string[] = []
    const broken = { ...link, id: 5, alias: 'poster', shorturl: 'https://lw.test/poster', health: { state: 'broken', status: 500, checkedat: '2026-03-02 08:00:00' } }
    answerWith((request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/urls') {
        requests.push(url.search)
        return listOf('urls', url.searchParams.get('health') === 'broken' ? [broken] : [link, broken])
      }
      return listOf(url.pathname.slice(5), [])
    })
    const router = createMemoryRouter([{ path: '/links', element: <LinksPage /> }], { initialEntries: ['/links'] })
    render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)

    const brokenRow = (await screen.findByRole('link', { name: 'lw.test/poster' })).closest('tr')!
    expect(within(brokenRow).getByText('Broken')).toBeTruthy()
    expect(within(brokenRow).getByText(/^The destination answered with an error \(500\) when checked .+\. Edit the link to fix the address, or to send visitors elsewhere while it is broken\.$/)).toBeTruthy()
    const workingRow = screen.getByRole('link', { name: 'lw.test/spring' }).closest('tr')!
    expect(within(workingRow).queryByText('Broken')).toBeNull()
    expect(within(workingRow).queryByText(/The destination/)).toBeNull()

    await user.selectOptions(screen.getByLabelText('Destination'), 'Broken links')
    await waitFor(() => expect(requests.at(-1)).toBe('?limit=15&page=1&order=date&health=broken'))
    expect(router.state.location.search).toBe('?health=broken')
    await waitFor(() => expect(screen.queryByRole('link', { name: 'lw.test/spring' })).toBeNull())
  })
})
