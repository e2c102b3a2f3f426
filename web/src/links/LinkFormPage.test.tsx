// The link builder's page as a new person uses it: type the destination, press Enter, and the
// link is created, as the Create link button does; Enter in the template's name saves the template.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { CreateLinkPage } from './LinkFormPage'

function listOf(key: string, items: unknown[]) {
  return json(200, { error: '0', data: { result: items.length, perpage: 100, currentpage: 1, nextpage: null, maxpage: items.length ? 1 : 0, [key]: items } })
}

/** The builder on a workspace with nothing in it yet; `sent` collects what the page sends. */
function renderBuilder(sent: Array<{ path: string; body: unknown }>) {
  // A created link scrolls the page to its address; jsdom scrolls nothing.
  const scroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined)
  onTestFinished(() => scroll.mockRestore())
  const templates: unknown[] = []
  answerWith(async (request) => {
    const path = new URL(request.url).pathname
    if (request.method === 'POST') {
      const body = await request.json()
      sent.push({ path, body })
      if (path === '/api/url/add') return json(201, { error: 0, id: 9, shorturl: 'https://lw.test/k3x9' })
      if (path === '/api/utm-template/add') {
        templates.push({ id: 1, ...(body as object) })
        return json(201, { error: 0, id: 1 })
      }
    }
    if (path === '/api/utm-templates') return listOf('templates', templates)
    if (path === '/api/account/limits') return json(200, { error: 0, data: { admin: false, resources: [] } })
    // Domains, campaigns, channels, pixels, splash pages, overlays and tags: none yet.
    const key = { '/api/overlay': 'cta', '/api/domains': 'domains' }[path] ?? path.slice(5)
    return listOf(key, [])
  })
  const router = createMemoryRouter([{ path: '/links/new', element: <CreateLinkPage /> }], { initialEntries: ['/links/new'] })
  render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)
}

describe('the create link page', () => {
  it('creates the link when Enter is pressed in the destination, as its button does', async () => {
    const user = setupUser()
    const sent: Array<{ path: string; body: unknown }> = []
    renderBuilder(sent)
    const destination = await screen.findByLabelText('Destination URL')
    await user.type(destination, 'https://example.com/spring{Enter}')

    expect((await screen.findByRole('status')).textContent).toContain('https://lw.test/k3x9')
    expect(sent).toEqual([{ path: '/api/url/add', body: { url: 'https://example.com/spring', type: 'direct' } }])
    // A fresh form for the next link.
    expect((screen.getByLabelText('Destination URL') as HTMLInputElement).value).toBe('')
  })

  it('says what is wrong when Enter sends a destination that is no address', async () => {
    const user = setupUser()
    const sent: Array<{ path: string; body: unknown }> = []
    renderBuilder(sent)
    await user.type(await screen.findByLabelText('Destination URL'), 'example.com{Enter}')
    expect((await screen.findByRole('alert')).textContent).toContain('need a fix')
    expect(sent).toEqual([])
  })

  it('saves a UTM template when Enter is pressed in its name, without creating the link', async () => {
    const user = setupUser()
    const sent: Array<{ path: string; body: unknown }> = []
    renderBuilder(sent)
    await user.type(await screen.findByLabelText('Destination URL'), 'https://example.com/spring')
    await user.type(screen.getByLabelText('UTM source (optional)'), 'poster')
    await user.type(screen.getByLabelText('Template name (optional)'), 'Posters{Enter}')

    await waitFor(() => expect(sent).toEqual([{ path: '/api/utm-template/add', body: { name: 'Posters', utm: { source: 'poster' } } }]))
    expect(await screen.findByText('Saved as “Posters”.')).toBeTruthy()
    expect(await screen.findByRole('option', { name: 'Posters' })).toBeTruthy()
  })

  it('sends the form when Enter is pressed in an empty tags field, and adds a tag when a name is typed', async () => {
    const user = setupUser()
    const sent: Array<{ path: string; body: unknown }> = []
    renderBuilder(sent)
    await user.type(await screen.findByLabelText('Destination URL'), 'https://example.com/spring')
    await user.type(screen.getByLabelText('Tags (optional)'), 'print{Enter}')
    expect(screen.getByRole('button', { name: 'Remove tag print' })).toBeTruthy()
    expect(sent).toEqual([])
    await user.keyboard('{Enter}')
    await waitFor(() => expect(sent).toEqual([{ path: '/api/url/add', body: { url: 'https://example.com/spring', type: 'direct', tags: ['print'] } }]))
  })
})
