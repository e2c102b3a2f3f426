// The builder's social card: the image chosen, checked, uploaded and removed, and the card as
// Slack, X and LinkedIn would show it, from the form's meta title and description.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { LinkForm, type LinkFormOptions } from './LinkForm'
import { emptyLinkForm } from './link-form'
import { cardFileProblem } from './SocialCard'
import { setupUser } from '../test-setup'

const options: LinkFormOptions = { domains: [], campaigns: [], channels: [], pixels: [], splashPages: [], overlays: [], utmTemplates: [] }
const CARD = 'http://localhost:3000/card/AbCdEfGhIjKlMnOp.jpg'

function renderEdit(card: { url: string | null; onUpload(file: File): Promise<unknown>; onRemove(): Promise<unknown> }) {
  return render(
    <MemoryRouter>
      <LinkForm mode="edit" initial={{ ...emptyLinkForm, url: 'https://example.com/sale', metatitle: 'Spring sale', metadescription: 'Everything 20 % off' }} options={options} submitLabel="Save changes" onSubmit={vi.fn()} card={card} />
    </MemoryRouter>,
  )
}

describe('the social card in the link builder', () => {
  it('shows the card as Slack, X and LinkedIn would, with title, description, domain and image', () => {
    renderEdit({ url: CARD, onUpload: vi.fn(), onRemove: vi.fn() })
    for (const network of ['Slack', 'X', 'LinkedIn']) {
      const preview = screen.getByRole('figure', { name: `${network} preview` })
      expect(within(preview).getByText('Spring sale')).toBeTruthy()
      expect(preview.querySelector('img')?.getAttribute('src')).toBe(CARD)
      expect(preview.textContent).toContain('localhost:3000')
    }
    expect(within(screen.getByRole('figure', { name: 'Slack preview' })).getByText('Everything 20 % off')).toBeTruthy()
  })

  it('follows the meta title as it is typed', async () => {
    const user = setupUser()
    renderEdit({ url: null, onUpload: vi.fn(), onRemove: vi.fn() })
    const title = screen.getByLabelText('Meta title (optional)')
    await user.clear(title)
    await user.type(title, 'Autumn')
    expect(within(screen.getByRole('figure', { name: 'LinkedIn preview' })).getByText('Autumn')).toBeTruthy()
    // No image yet: no picture in any mock-up, and nothing to remove.
    expect(document.querySelectorAll('.social-previews img')).toHaveLength(0)
    expect(screen.queryByRole('button', { name: 'Remove card image' })).toBeNull()
  })

  it('uploads a chosen image, refuses other types and large files before sending, and shows the server\'s refusal', async () => {
    const onUpload = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new ApiError(400, 'The field "image" could not be read as a PNG image.', { code: 'validation_failed', field: 'image' }))
    renderEdit({ url: null, onUpload, onRemove: vi.fn() })
    const input = screen.getByLabelText('Card image (optional)')
    const png = new File([new Uint8Array([0x89, 0x50])], 'card.png', { type: 'image/png' })
    fireEvent.change(input, { target: { files: [png] } })
    await waitFor(() => expect(onUpload).toHaveBeenCalledWith(png))

    fireEvent.change(input, { target: { files: [new File(['GIF89a'], 'card.gif', { type: 'image/gif' })] } })
    expect((await screen.findByRole('alert')).textContent).toBe('Choose a PNG, JPEG or WebP image.')
    expect(onUpload).toHaveBeenCalledTimes(1)

    fireEvent.change(input, { target: { files: [png] } })
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('could not be read'))
  })

  it('removes the card image', async () => {
    const user = setupUser()
    const onRemove = vi.fn().mockResolvedValue(undefined)
    renderEdit({ url: CARD, onUpload: vi.fn(), onRemove })
    await user.click(screen.getByRole('button', { name: 'Remove card image' }))
    expect(onRemove).toHaveBeenCalledTimes(1)
  })

  it('checks a file as the server does: PNG, JPEG or WebP, at most 1 MB', () => {
    expect(cardFileProblem({ type: 'image/webp', size: 1024 * 1024 })).toBeUndefined()
    expect(cardFileProblem({ type: 'image/jpeg', size: 1024 * 1024 + 1 })).toMatch(/at most 1 MB/)
    expect(cardFileProblem({ type: 'image/svg+xml', size: 10 })).toBe('Choose a PNG, JPEG or WebP image.')
    expect(cardFileProblem({ type: 'image/png', size: 0 })).toBe('The file is empty.')
  })

  it('asks to save a new link before adding an image', () => {
    render(<MemoryRouter><LinkForm mode="create" initial={emptyLinkForm} options={options} submitLabel="Create link" onSubmit={vi.fn()} /></MemoryRouter>)
    expect(screen.getByText(/Save the link first/)).toBeTruthy()
    expect(screen.getByRole('figure', { name: 'X preview' })).toBeTruthy()
  })
})
