// A question that is answered by typing (the workspace's name before deleting it): Enter in the
// field does what the confirm button does, once the button may; Escape backs out.
import { render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { setupUser } from '../test-setup'
import { ConfirmDialog } from './ConfirmDialog'
import { Field } from './Field'

function TypedQuestion({ onConfirm, onCancel }: { onConfirm(): void; onCancel(): void }) {
  const [typed, setTyped] = useState('')
  return (
    <ConfirmDialog title="Delete acme?" confirmLabel="Delete workspace" confirmDisabled={typed !== 'acme'} onConfirm={onConfirm} onCancel={onCancel}>
      <Field label="Type the workspace's name, acme, to confirm">
        <input type="text" value={typed} onChange={(event) => setTyped(event.target.value)} />
      </Field>
    </ConfirmDialog>
  )
}

describe('the confirm dialog', () => {
  it('confirms on Enter in its field once the answer is right, and not before', async () => {
    const user = setupUser()
    const onConfirm = vi.fn()
    render(<TypedQuestion onConfirm={onConfirm} onCancel={vi.fn()} />)
    const field = screen.getByLabelText("Type the workspace's name, acme, to confirm")
    await user.type(field, 'acm{Enter}')
    expect(onConfirm).not.toHaveBeenCalled()
    await user.type(field, 'e{Enter}')
    expect(onConfirm).toHaveBeenCalledTimes(1)
  })

  it('leaves Enter on a button to the button, and Escape cancels', async () => {
    const user = setupUser()
    const onConfirm = vi.fn()
    const onCancel = vi.fn()
    render(<TypedQuestion onConfirm={onConfirm} onCancel={onCancel} />)
    // The focus starts on Cancel: Enter there cancels.
    await user.keyboard('{Enter}')
    expect(onCancel).toHaveBeenCalledTimes(1)
    await user.keyboard('{Escape}')
    expect(onCancel).toHaveBeenCalledTimes(2)
    expect(onConfirm).not.toHaveBeenCalled()
  })
})
