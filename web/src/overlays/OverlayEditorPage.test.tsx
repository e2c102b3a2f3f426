// The overlay editor as a person uses it: the type decides the fields, the preview is the
// server's HTML in a sandboxed frame, checks run before sending, and the server's refusal is
// shown beside the field it names.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { CreateOverlayPage } from './OverlayEditorPage'

function renderEditor() {
  const router = createMemoryRouter([
    { path: '/overlays/new', element: <CreateOverlayPage /> },
    { path: '/overlays', element: <p>Overlay list</p> },
  ], { initialEntries: ['/overlays/new'] })
  render(<QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>)
}

/** The text of the messages a control points at (aria-describedby). */
function describedText(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

describe('the overlay editor', () => {
  it('shows the contact fields, previews the server\'s page in a sandboxed frame and sends only the contact fields', async () => {
    const user = setupUser()
    const previews: unknown[] = []
    const created: unknown[] = []
    answerWith(async (request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/overlay/preview') {
        const body = (await request.json()) as { title?: string }
        previews.push(body)
        return new Response(`<!doctype html><p>${body.title ?? 'Contact us'}</p>`, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } })
      }
      if (url.pathname === '/api/overlay/add') {
        created.push(await request.json())
        return json(201, { error: 0, id: 9 })
      }
      return json(200, { error: 0, data: { resources: [] } })
    })
    renderEditor()

    await user.selectOptions(screen.getByLabelText('Type'), 'contact')
    expect(screen.queryByLabelText('Message')).toBeNull()
    await user.type(screen.getByLabelText('Name'), 'Leads')
    await user.type(screen.getByLabelText('Title (optional)'), 'Talk to us')
    const frame = await waitFor(() => {
      const element = screen.getByTitle('Preview of the overlay')
      expect(element.getAttribute('srcdoc')).toContain('<p>Talk to us</p>')
      return element
    }, { timeout: 3000 })
    expect(frame.getAttribute('sandbox')).toBe('')
    // While the e-mail is missing the preview stands one in; the form refuses to save.
    expect(previews.at(-1)).toMatchObject({ type: 'contact', name: 'Leads', email: 'preview@example.com' })
    await user.click(screen.getByRole('button', { name: 'Create overlay' }))
    expect(describedText(screen.getByLabelText('Your e-mail'))).toContain('Enter the address that receives the messages.')
    expect(created).toEqual([])

    await user.type(screen.getByLabelText('Your e-mail'), 'sales@example.com')
    await user.click(screen.getByRole('button', { name: 'Create overlay' }))
    await screen.findByText('Overlay list')
    expect(created).toEqual([{ type: 'contact', name: 'Leads', title: 'Talk to us', description: '', label: '', email: 'sales@example.com' }])
  })

  it('shows the server\'s refusal beside the field it names', async () => {
    const user = setupUser()
    answerWith((request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/overlay/preview') return new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } })
      if (url.pathname === '/api/overlay/add') return json(400, { error: 1, message: 'The field "link" must be an http or https URL.', code: 'validation_failed', field: 'link' })
      return json(200, { error: 0, data: { resources: [] } })
    })
    renderEditor()
    await user.type(screen.getByLabelText('Name'), 'Promo')
    await user.type(screen.getByLabelText('Message'), 'Get 20% off')
    await user.type(screen.getByLabelText('Button link (optional)'), 'https://shop.example')
    await user.click(screen.getByRole('button', { name: 'Create overlay' }))
    await waitFor(() => expect(describedText(screen.getByLabelText('Button link (optional)'))).toContain('Must be an http or https URL.'))
    expect(screen.getByRole('alert').textContent).toBe('The field "link" must be an http or https URL.')
  })
})
