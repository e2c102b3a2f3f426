// The workspace's time zone on the account page: the saved zone selected, the browser's IANA
// zones offered, a new one sent as PUT /api/account/update {timezone} and read back.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { timeZoneChoices, TimeZoneSection } from './TimeZoneSection'

describe('the time zone setting', () => {
  it('offers UTC first, then every zone the browser knows, and keeps a saved zone it does not list', () => {
    const choices = timeZoneChoices('Etc/Unlisted')
    expect(choices[0]).toBe('UTC')
    expect(choices).toContain('Europe/Berlin')
    expect(choices).toContain('Etc/Unlisted')
    expect(new Set(choices).size).toBe(choices.length)
  })

  it('shows the saved zone and saves another one', async () => {
    const user = setupUser()
    let saved = 'UTC'
    const sent: unknown[] = []
    answerWith(async (request) => {
      const url = new URL(request.url)
      if (url.pathname === '/api/account/settings') return json(200, { error: 0, data: { timezone: saved } })
      if (url.pathname === '/api/account/update' && request.method === 'PUT') {
        const body = await request.json() as { timezone: string }
        sent.push(body)
        saved = body.timezone
        return json(200, { error: 0, message: 'Account has been successfully updated.' })
      }
      return json(404, { error: 1, message: 'Not found.', code: 'not_found' })
    })
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><TimeZoneSection /></QueryClientProvider>)
    const select = await screen.findByLabelText('Statistics time zone') as HTMLSelectElement
    await waitFor(() => expect(select.disabled).toBe(false))
    expect(select.value).toBe('UTC')
    expect((screen.getByRole('button', { name: 'Save time zone' }) as HTMLButtonElement).disabled).toBe(true)
    await user.selectOptions(select, 'Europe/Berlin')
    await user.click(screen.getByRole('button', { name: 'Save time zone' }))
    await screen.findByText('Statistics now count in Europe/Berlin.')
    expect(sent).toEqual([{ timezone: 'Europe/Berlin' }])
    expect(select.value).toBe('Europe/Berlin')
  })
})
