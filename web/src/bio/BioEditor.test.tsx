// The bio editor: the preview is asked of the server with the draft (a moment after typing) and
// shown in a sandboxed frame; the server's refusal lands beside the field it names.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { answerWith, setupUser } from '../test-setup'
import { emptyBioDraft } from './bio-form'
import { BioEditor } from './BioEditor'

function renderEditor(onSubmit: () => Promise<unknown>) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <BioEditor mode="create" initial={emptyBioDraft()} submitLabel="Create bio page" onSubmit={onSubmit} onCancel={() => {}} />
    </QueryClientProvider>,
  )
}

describe('the bio editor', () => {
  it('previews the draft through the server and shows it in a sandboxed frame', async () => {
    const user = setupUser()
    const previews: Array<{ name: string; blocks: unknown[] }> = []
    answerWith(async (request) => {
      const body = await request.json() as { name: string; blocks: unknown[] }
      previews.push(body)
      expect(request.headers.get('x-linkwell-csrf')).toBe('1')
      return new Response(`<!doctype html><h1>${body.name}</h1>`, { headers: { 'content-type': 'text/html; charset=utf-8' } })
    })
    renderEditor(vi.fn())
    await user.type(screen.getByLabelText('Name'), 'Jane')
    await user.click(screen.getByRole('button', { name: '+ Add link block' }))
    await user.keyboard('Shop')
    await user.type(screen.getByLabelText('Block 1 URL'), 'https://shop.example.com')
    const frame = await screen.findByTitle('Preview of the public page')
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toBe('<!doctype html><h1>Jane</h1>'))
    expect(frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox')
    // Asked a moment after the last key, not once per key: far fewer previews than the 32 keys typed.
    // (How many depends on the machine's speed: a loaded one lets the draft settle between keys now and then.)
    const keys = 'Jane'.length + 'Shop'.length + 'https://shop.example.com'.length
    expect(previews.length).toBeLessThan(keys / 2)
    await waitFor(() => expect(previews.at(-1)).toMatchObject({ name: 'Jane', blocks: [{ title: 'Shop', url: 'https://shop.example.com' }] }))
  })

  it('shows the server\'s refusal of the address beside that field', async () => {
    const user = setupUser()
    answerWith(() => new Response('<!doctype html>', { headers: { 'content-type': 'text/html; charset=utf-8' } }))
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(400, 'That alias is taken. Please choose another one.', { code: 'duplicate', field: 'alias' }))
    renderEditor(onSubmit)
    await user.type(screen.getByLabelText('Name'), 'Jane')
    await user.type(screen.getByLabelText('Address (optional)'), 'jane')
    await user.click(screen.getByRole('button', { name: 'Create bio page' }))
    await screen.findByRole('alert')
    expect(onSubmit).toHaveBeenCalledOnce()
    const address = screen.getByLabelText('Address (optional)')
    expect(address.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(address.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent).toBe('That alias is taken. Please choose another one.')
  })

  it('does not send a draft the server would refuse', async () => {
    const user = setupUser()
    answerWith(() => new Response('<!doctype html>', { headers: { 'content-type': 'text/html; charset=utf-8' } }))
    const onSubmit = vi.fn()
    renderEditor(onSubmit)
    await user.type(screen.getByLabelText('Name'), 'J')
    await user.click(screen.getByRole('button', { name: 'Create bio page' }))
    expect(screen.getByRole('alert').textContent).toBe('Some fields need a fix before the page can be saved.')
    expect(screen.getByText('Use 2 to 100 characters.')).toBeTruthy()
    expect(onSubmit).not.toHaveBeenCalled()
  })
})
