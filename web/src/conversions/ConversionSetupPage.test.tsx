// The setup steps do what they say with the settings and keys the API already has: the workspace's
// default, a key that may only record (scope `track`), the websites one per line, the Stripe
// address made before its secret, and a secret of the wrong shape refused beside its field.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, fill, json, setupUser } from '../test-setup'
import { ConversionSetupPage, originsOf, scriptSnippet } from './ConversionSetupPage'

const ADDRESS = 'http://localhost:3000/api/integrations/stripe/webhook/tok_123'

function server() {
  const sent: Array<{ path: string; body: unknown }> = []
  let settings = { timezone: 'UTC', trackconversions: false, clickidparameter: 'lw_id', querypassthrough: false, attributiondays: 90, trackingorigins: [] as string[], customeremails: true, stripewebhookurl: null as string | null, stripesigningsecretset: false }
  answerWith(async (request) => {
    const url = new URL(request.url)
    if (url.pathname === '/api/account/settings') return json(200, { error: 0, data: settings })
    const body = request.method === 'GET' ? undefined : await request.json()
    sent.push({ path: url.pathname, body })
    if (url.pathname === '/api/key/add') return json(201, { error: 0, id: 4, key: 'lw_pub_0123456789abcdefghij' })
    if (url.pathname === '/api/account/update') {
      const change = body as Record<string, unknown>
      if (change.stripesigningsecret === '') settings = { ...settings, stripewebhookurl: ADDRESS }
      if (typeof change.stripesigningsecret === 'string' && change.stripesigningsecret !== '') settings = { ...settings, stripesigningsecretset: true }
      if (Array.isArray(change.trackingorigins)) settings = { ...settings, trackingorigins: change.trackingorigins as string[] }
      if (typeof change.trackconversions === 'boolean') settings = { ...settings, trackconversions: change.trackconversions }
      return json(200, { error: 0, message: 'Account has been successfully updated.' })
    }
    return json(404, { error: 1, message: 'Not found.', code: 'not_found' })
  })
  return sent
}

function renderPage() {
  const router = createMemoryRouter([{ path: '/conversions/setup', element: <ConversionSetupPage /> }], { initialEntries: ['/conversions/setup'] })
  render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><RouterProvider router={router} /></QueryClientProvider>)
}

describe('the conversion setup steps', () => {
  it('writes the script for this Linkwell, naming a renamed parameter, and reads websites one per line', () => {
    expect(scriptSnippet('https://lnk.example', 'lw_id')).toBe('<script src="https://lnk.example/lw.js" async></script>')
    expect(scriptSnippet('https://lnk.example', 'ref')).toBe('<script src="https://lnk.example/lw.js" data-param="ref" async></script>')
    expect(originsOf(' https://shop.example/\n\nhttp://127.0.0.1:8080 \n')).toEqual(['https://shop.example', 'http://127.0.0.1:8080'])
  })

  it('turns the default on, makes a key that may only record, lists websites, and connects Stripe address first', async () => {
    const user = setupUser()
    const sent = server()
    renderPage()
    await screen.findByRole('heading', { name: 'Turn on conversion tracking for your links' })

    await user.click(screen.getByRole('checkbox', { name: 'Track conversions on every new link' }))
    await user.click(within(screen.getByRole('form', { name: 'Conversion tracking for new links' })).getByRole('button', { name: 'Save' }))
    await screen.findByText('Saved.')
    expect(sent).toContainEqual({ path: '/api/account/update', body: { trackconversions: true, querypassthrough: false } })

    await user.click(screen.getByRole('button', { name: 'Create publishable key' }))
    expect((await screen.findByLabelText('New publishable key')).textContent).toBe('lw_pub_0123456789abcdefghij')
    expect(sent).toContainEqual({ path: '/api/key/add', body: { name: 'Website', scopes: ['track'] } })

    const websites = screen.getByLabelText(/Websites whose pages may report directly/)
    await fill(user, websites, 'shop.example/cart')
    await user.click(screen.getByRole('button', { name: 'Save websites' }))
    expect(await screen.findByText('“shop.example/cart” is not a website address such as https://shop.example (no path).')).toBeTruthy()
    await fill(user, websites, 'https://shop.example/')
    await user.click(screen.getByRole('button', { name: 'Save websites' }))
    await within(screen.getByRole('form', { name: 'Websites allowed to report' })).findByText('Saved.')
    expect(sent).toContainEqual({ path: '/api/account/update', body: { trackingorigins: ['https://shop.example'] } })

    // Stripe: the address first, then its secret.
    expect(screen.queryByLabelText('Stripe signing secret')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Get my Stripe address' }))
    expect((await screen.findByLabelText('Your Stripe webhook address')).textContent).toBe(ADDRESS)
    expect(sent).toContainEqual({ path: '/api/account/update', body: { stripesigningsecret: '' } })
    const secret = screen.getByLabelText('Stripe signing secret')
    await fill(user, secret, 'sk_live_wrong')
    await user.click(screen.getByRole('button', { name: 'Save secret' }))
    expect(await screen.findByText('Paste the signing secret Stripe shows for this endpoint: it starts with whsec_.')).toBeTruthy()
    await fill(user, secret, 'whsec_0123456789abcdef')
    await user.click(screen.getByRole('button', { name: 'Save secret' }))
    await screen.findByText('Stripe is connected: paid checkouts and invoices are recorded as sales.')
    expect(sent).toContainEqual({ path: '/api/account/update', body: { stripesigningsecret: 'whsec_0123456789abcdef' } })
  })
})
