// The tag chips and the tag filter on the QR codes and bio pages lists (the links list's own
// components): an item's tag narrows the list to it (`?tag=`), a second one adds to it, the chip's
// × takes it off, and a page change keeps the filter.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { QrCodesPage } from '../qr/QrCodesPage'
import { BioPagesPage } from '../bio/BioPagesPage'

function listOf(key: string, items: unknown[]) {
  return json(200, { error: '0', data: { result: items.length, perpage: 15, currentpage: 1, nextpage: null, maxpage: items.length ? 1 : 0, [key]: items } })
}

const qr = { id: 3, name: 'Poster', link: 'https://lw.test/qr/poster', scans: 2, date: '2026-03-01 10:00:00', tags: ['print', 'spring'] }
const bio = { id: 5, name: 'Me', url: 'https://lw.test/me', clicks: 1, date: '2026-03-01 10:00:00', tags: ['spring'] }
const tags = [{ id: 1, name: 'print', color: '#aa3300', links: 0, qrcodes: 1, biopages: 0 }, { id: 2, name: 'spring', color: null, links: 0, qrcodes: 1, biopages: 1 }]

function serve(listPath: string, key: string, item: unknown, requests: string[]) {
  answerWith((request) => {
    const url = new URL(request.url)
    if (url.pathname === listPath) {
      requests.push(`${url.pathname}${url.search}`)
      return listOf(key, [item])
    }
    if (url.pathname === '/api/tags') return listOf('tags', tags)
    if (url.pathname === '/api/account/limits') return json(200, { error: 0, data: { admin: false, resources: [] } })
    return listOf(url.pathname.slice(5), [])
  })
}

describe('tags on the QR codes and bio pages lists', () => {
  it('narrows the QR codes to a tag chosen on a code, adds a second from the filter, and takes one off', async () => {
    const user = setupUser()
    const requests: string[] = []
    serve('/api/qr', 'qrs', qr, requests)
    const router = createMemoryRouter([{ path: '/qr', element: <QrCodesPage /> }], { initialEntries: ['/qr'] })
    render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)

    await user.click(await screen.findByRole('button', { name: 'Show QR codes tagged print' }))
    await waitFor(() => expect(requests).toContain('/api/qr?limit=15&page=1&tag=print'))
    expect(router.state.location.search).toBe('?tag=print')
    await user.selectOptions(screen.getByLabelText('Tag'), 'spring')
    await waitFor(() => expect(requests).toContain('/api/qr?limit=15&page=1&tag=print&tag=spring'))
    await user.click(screen.getByRole('button', { name: 'Stop filtering by tag print' }))
    await waitFor(() => expect(router.state.location.search).toBe('?tag=spring'))
  })

  it('narrows the bio pages to a tag', async () => {
    const user = setupUser()
    const requests: string[] = []
    serve('/api/bio', 'bio', bio, requests)
    const router = createMemoryRouter([{ path: '/bio', element: <BioPagesPage /> }], { initialEntries: ['/bio?page=2'] })
    render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)
    await user.click(await screen.findByRole('button', { name: 'Show bio pages tagged spring' }))
    await waitFor(() => expect(requests).toContain('/api/bio?page=1&limit=20&tag=spring'))
    expect(screen.getByRole('list', { name: 'Tags the list is narrowed to' }).textContent).toContain('#spring')
  })
})
