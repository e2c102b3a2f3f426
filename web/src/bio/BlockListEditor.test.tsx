// Reordering link blocks as a keyboard user does it: the labelled move buttons and Alt+Arrow keys,
// with focus following the moved block and the move announced.
import { render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { newBlock, type BlockDraft } from './bio-form'
import { BlockListEditor } from './BlockListEditor'
import { setupUser } from '../test-setup'

function Harness({ initial }: { initial: BlockDraft[] }) {
  const [blocks, setBlocks] = useState(initial)
  return (
    <>
      <BlockListEditor blocks={blocks} errors={{ 'blocks.1.url': 'Enter an http or https address.' }} onChange={setBlocks} />
      <div data-testid="order">{blocks.map((block) => block.title).join(',')}</div>
    </>
  )
}

function setup() {
  const user = setupUser()
  render(<Harness initial={[newBlock('Shop', 'https://shop.example.com'), newBlock('Blog', 'https://blog.example.com'), newBlock('Video', 'https://video.example.com')]} />)
  return { user, order: () => screen.getByTestId('order').textContent }
}

describe('the link blocks editor', () => {
  it('moves a block with its labelled buttons; focus stays on the moved block\'s button', async () => {
    const { user, order } = setup()
    await user.click(screen.getByRole('button', { name: 'Move "Video" up' }))
    expect(order()).toBe('Shop,Video,Blog')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move "Video" up' }))
    expect(screen.getByRole('status').textContent).toBe('Moved "Video" to position 2 of 3.')
    // At the top its "up" button is disabled: focus goes to its "down" button.
    await user.keyboard('{Enter}')
    expect(order()).toBe('Video,Shop,Blog')
    expect(screen.getByRole('button', { name: 'Move "Video" up' })).toHaveProperty('disabled', true)
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move "Video" down' }))
  })

  it('moves the focused block with Alt+ArrowUp/Down, keeping focus in the same field', async () => {
    const { user, order } = setup()
    await user.click(screen.getByLabelText('Block 1 title'))
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}')
    expect(order()).toBe('Blog,Shop,Video')
    expect(document.activeElement).toBe(screen.getByLabelText('Block 2 title'))
    expect((document.activeElement as HTMLInputElement).value).toBe('Shop')
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}')
    expect(order()).toBe('Blog,Video,Shop')
    // Past the end nothing moves.
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}')
    expect(order()).toBe('Blog,Video,Shop')
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}')
    expect(order()).toBe('Blog,Shop,Video')
    expect(screen.getByRole('status').textContent).toBe('Moved "Shop" to position 2 of 3.')
    // A plain arrow key is the text field's own.
    await user.keyboard('{ArrowUp}')
    expect(order()).toBe('Blog,Shop,Video')
  })

  it('adds a block with focus in its title, edits it, and removes blocks', async () => {
    const { user, order } = setup()
    await user.click(screen.getByRole('button', { name: '+ Add link block' }))
    expect(document.activeElement).toBe(screen.getByLabelText('Block 4 title'))
    await user.keyboard('Newsletter')
    expect(order()).toBe('Shop,Blog,Video,Newsletter')
    await user.click(screen.getByRole('button', { name: 'Remove "Blog"' }))
    expect(order()).toBe('Shop,Video,Newsletter')
    expect(screen.getByRole('status').textContent).toBe('Removed "Blog".')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove "Video"' }))
  })

  it('shows an error beside the field it names', () => {
    setup()
    const field = screen.getByLabelText('Block 2 URL')
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe('Enter an http or https address.')
  })
})
