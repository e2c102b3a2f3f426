// The plans page: the list read from the server, a plan created with its limits (empty means
// unlimited), the server's refusal shown beside the field it names, deletion only once confirmed
// and the server's reason when a plan is in use.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { answerWith, json, setupUser } from '../test-setup'
import { PlansPage } from './PlansPage'

const pro = { id: 1, name: 'Pro', code: 'pro', apirate: null, limits: {}, default: true }
const tiny = { id: 2, name: 'Tiny', code: 'tiny', apirate: 30, limits: { campaigns: 1, links: 2 }, default: false }

function plansList(plans: unknown[]) {
  return json(200, { error: '0', data: { result: plans.length, perpage: 100, currentpage: 1, nextpage: null, maxpage: 1, plans } })
}

function renderPage() {
  render(<QueryClientProvider client={new QueryClient()}><PlansPage /></QueryClientProvider>)
}

describe('the plans page', () => {
  it('lists plans with their rate and limits in words; the default plan cannot be deleted', async () => {
    answerWith(() => plansList([tiny, pro]))
    renderPage()
    const row = (await screen.findByText('Tiny', { selector: 'strong' })).closest('tr')!
    expect(within(row).getByText('30 requests a minute')).toBeTruthy()
    expect(within(row).getByText('2 links, 1 campaign')).toBeTruthy()
    const proRow = screen.getByText('Pro', { selector: 'strong' }).closest('tr')!
    expect(within(proRow).getByText('No limits')).toBeTruthy()
    expect(within(proRow).getByRole('button', { name: 'Delete Pro' })).toHaveProperty('disabled', true)
  })

  it('creates a plan: checks first, sends only the limits given, shows the server\'s refusal beside its field', async () => {
    const user = setupUser()
    const sent: unknown[] = []
    answerWith(async (request) => {
      if (request.method === 'POST') {
        const body = await request.json() as { code: string }
        sent.push(body)
        if (body.code === 'pro') return json(400, { error: 1, message: 'A plan with this code already exists.', code: 'duplicate', field: 'code' })
        return json(201, { error: 0, data: { id: 3, default: false, ...body } })
      }
      return plansList([pro])
    })
    renderPage()
    await user.click(await screen.findByRole('button', { name: '+ Create plan' }))
    await user.type(screen.getByLabelText('Plan name'), 'Small')
    await user.type(screen.getByLabelText('Code'), 'pro')
    await user.type(screen.getByLabelText('Most campaigns'), '1.5')
    await user.click(screen.getByRole('button', { name: 'Create plan' }))
    expect(screen.getByText('Use a whole number of 0 or more, or leave it empty for no limit.')).toBeTruthy()
    expect(sent).toEqual([])

    await user.clear(screen.getByLabelText('Most campaigns'))
    await user.type(screen.getByLabelText('Most campaigns'), '1')
    await user.type(screen.getByLabelText('API requests per minute (optional)'), '60')
    await user.click(screen.getByRole('button', { name: 'Create plan' }))
    await screen.findByRole('alert')
    const code = screen.getByLabelText('Code')
    expect(code.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(code.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent).toBe('A plan with this code already exists.')
    expect(sent).toEqual([{ name: 'Small', code: 'pro', apirate: 60, limits: { campaigns: 1 } }])

    await user.clear(code)
    await user.type(code, 'small')
    await user.click(screen.getByRole('button', { name: 'Create plan' }))
    expect((await screen.findByRole('status')).textContent).toContain('Plan "Small" created.')
  })

  it('deletes a plan only once confirmed, and says why when it is in use', async () => {
    const user = setupUser()
    const deletes: string[] = []
    answerWith((request) => {
      if (request.method === 'DELETE') {
        deletes.push(new URL(request.url).pathname)
        return json(400, { error: 1, message: 'This plan still has 1 account. Move them to another plan first.', code: 'plan_in_use' })
      }
      return plansList([tiny, pro])
    })
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Delete Tiny' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the plan "Tiny"?' })
    await user.keyboard('{Escape}')
    expect(deletes).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Delete Tiny' }))
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete plan' }))
    expect((await within(screen.getByRole('alertdialog')).findByRole('alert')).textContent).toBe('This plan still has 1 account. Move them to another plan first.')
    expect(deletes).toEqual(['/api/plan/2/delete'])
    expect(dialog).toBeTruthy()
  })
})
