// The sign-in page's single sign-on buttons: one link per provider that answers, a notice for one
// that does not (the password form stays), nothing without providers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { answerWith, json } from '../test-setup'
import { SingleSignOnButtons } from './SingleSignOnButtons'
import { parseMapping } from '../members/SingleSignOnSection'

function renderButtons(address = '/signin') {
  return render(<QueryClientProvider client={new QueryClient()}><MemoryRouter initialEntries={[address]}><SingleSignOnButtons /></MemoryRouter></QueryClientProvider>)
}

describe('the single sign-on buttons', () => {
  it('links to each provider that answers and says which does not', async () => {
    const asked: string[] = []
    answerWith(async (request) => {
      asked.push(new URL(request.url).pathname)
      return json(200, { error: 0, data: [
        { name: 'default', label: 'Corp ID', available: true, start: 'https://lw.test/api/auth/oidc/start?provider=default' },
        { name: 'partner', label: 'Partner ID', available: false, start: 'https://lw.test/api/auth/oidc/start?provider=partner' },
      ] })
    })
    renderButtons()
    const link = await screen.findByRole('link', { name: 'Sign in with Corp ID' })
    expect(link.getAttribute('href')).toBe('https://lw.test/api/auth/oidc/start?provider=default')
    expect(screen.queryByRole('link', { name: 'Sign in with Partner ID' })).toBeNull()
    expect(screen.getByRole('status').textContent).toContain('Partner ID does not answer right now')
    expect(asked).toEqual(['/api/auth/oidc/providers'])
  })

  it('shows nothing when the instance has no provider', async () => {
    let answered = false
    answerWith(async () => {
      answered = true
      return json(200, { error: 0, data: [] })
    })
    const { container } = renderButtons()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(answered).toBe(true)
    expect(container.textContent).toBe('')
  })

  it('says why a sign-in was refused and what to do, and ignores a reason it does not know', async () => {
    answerWith(async () => json(200, { error: 0, data: [{ name: 'default', label: 'Corp ID', available: true, start: 'https://lw.test/api/auth/oidc/start?provider=default' }] }))
    renderButtons('/signin?sso_error=token_audience')
    expect((await screen.findByRole('alert')).textContent).toBe('The answer of your identity provider was meant for another application. Nothing was signed in. Choose your identity provider again below. If this happens again, tell your administrator.')
    await screen.findByRole('link', { name: 'Sign in with Corp ID' })
  })

  it('shows nothing for an unknown reason without providers', async () => {
    answerWith(async () => json(200, { error: 0, data: [] }))
    const { container } = renderButtons('/signin?sso_error=<script>')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(container.textContent).toBe('')
  })
})

describe('the group mapping text', () => {
  it('reads "group: role" lines and names the first line that is not one', () => {
    expect(parseMapping('engineering: editor\n\n  leads : Admin ')).toEqual({ mapping: [{ group: 'engineering', role: 'editor' }, { group: 'leads', role: 'admin' }] })
    expect(parseMapping('a: editor\nb: boss')).toEqual({ error: 'Line 2 is not "group: role" with a role of owner, admin, editor or viewer.' })
    expect(parseMapping('no role here')).toHaveProperty('error')
  })
})
