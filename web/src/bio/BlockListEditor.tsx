// The link blocks of a bio page: add, edit, remove and reorder. Reordering works with the
// "Move up"/"Move down" buttons (labelled with the block's title) and with Alt+ArrowUp/Down
// anywhere inside a block; focus follows the moved block and a live region says where it went.
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Field } from '../components/Field'
import { blockName, MAX_BLOCKS, moveAnnouncement, moveBlock, newBlock, type BlockDraft } from './bio-form'

type FocusPart = 'title' | 'url' | 'up' | 'down' | 'remove'

interface BlockListEditorProps {
  blocks: BlockDraft[]
  /** Errors keyed by the server's field names (`blocks.0.url`). */
  errors: Partial<Record<string, string>>
  onChange(blocks: BlockDraft[]): void
}

export function BlockListEditor({ blocks, errors, onChange }: BlockListEditorProps) {
  const listRef = useRef<HTMLOListElement>(null)
  const [announcement, setAnnouncement] = useState('')
  // Where focus goes after the next render: a block's control (it moved, or was just added).
  const [focusTarget, setFocusTarget] = useState<{ key: number; part: FocusPart }>()

  useLayoutEffect(() => {
    if (!focusTarget || !listRef.current) return
    const item = listRef.current.querySelector<HTMLElement>(`[data-block-key="${focusTarget.key}"]`)
    const wanted = item?.querySelector<HTMLElement>(`[data-focus="${focusTarget.part}"]`)
    // A move button that became disabled (the block reached an end) hands focus to its partner.
    const partner = focusTarget.part === 'up' ? 'down' : focusTarget.part === 'down' ? 'up' : undefined
    const target = wanted && !(wanted as HTMLButtonElement).disabled ? wanted : partner ? item?.querySelector<HTMLElement>(`[data-focus="${partner}"]`) : item
    target?.focus()
    setFocusTarget(undefined)
  }, [focusTarget])

  function update(index: number, changes: Partial<BlockDraft>) {
    onChange(blocks.map((block, position) => (position === index ? { ...block, ...changes } : block)))
  }

  function move(index: number, to: number, part: FocusPart) {
    if (to < 0 || to >= blocks.length) return
    const block = blocks[index]!
    onChange(moveBlock(blocks, index, to))
    setAnnouncement(moveAnnouncement(block, to, blocks.length))
    setFocusTarget({ key: block.key, part })
  }

  function remove(index: number) {
    const block = blocks[index]!
    const rest = blocks.filter((_, position) => position !== index)
    onChange(rest)
    setAnnouncement(`Removed ${blockName(block, index)}.`)
    // Focus stays in the list: on the block that took its place, else the one before.
    const next = rest[index] ?? rest[index - 1]
    if (next) setFocusTarget({ key: next.key, part: 'remove' })
    else setFocusTarget(undefined)
  }

  function add() {
    const block = newBlock()
    onChange([...blocks, block])
    setFocusTarget({ key: block.key, part: 'title' })
  }

  function onKeyDown(event: KeyboardEvent<HTMLLIElement>, index: number) {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return
    event.preventDefault()
    const part = ((event.target as HTMLElement).dataset.focus as FocusPart | undefined) ?? 'title'
    move(index, event.key === 'ArrowUp' ? index - 1 : index + 1, part)
  }

  return (
    <div className="stack">
      <p className="muted small" id="blocks-help">Visitors see the buttons in this order. To move a block, use its arrows, or press Alt+↑ or Alt+↓ while in it.</p>
      {blocks.length === 0 ? (
        <p className="bio-blocks-empty">No link blocks yet. Add one for each place you want visitors to go: your shop, your latest video, a booking page.</p>
      ) : (
        <ol className="bio-blocks" ref={listRef} aria-label="Link blocks" aria-describedby="blocks-help">
          {blocks.map((block, index) => {
            const name = blockName(block, index)
            return (
              <li key={block.key} className="bio-block" data-block-key={block.key} onKeyDown={(event) => onKeyDown(event, index)}>
                <span className="bio-block-position" aria-hidden="true">{index + 1}</span>
                <div className="bio-block-fields">
                  <Field label={`Block ${index + 1} title`} error={errors[`blocks.${index}.title`]}>
                    <input type="text" data-focus="title" value={block.title} maxLength={100} placeholder="Shop my prints" onChange={(event) => update(index, { title: event.target.value })} />
                  </Field>
                  <Field label={`Block ${index + 1} URL`} error={errors[`blocks.${index}.url`]}>
                    <input type="url" inputMode="url" data-focus="url" value={block.url} placeholder="https://example.com/shop" onChange={(event) => update(index, { url: event.target.value })} />
                  </Field>
                </div>
                <div className="bio-block-actions">
                  <button type="button" className="button small ghost" data-focus="up" disabled={index === 0} onClick={() => move(index, index - 1, 'up')} aria-label={`Move ${name} up`} title="Move up (Alt+↑)">↑</button>
                  <button type="button" className="button small ghost" data-focus="down" disabled={index === blocks.length - 1} onClick={() => move(index, index + 1, 'down')} aria-label={`Move ${name} down`} title="Move down (Alt+↓)">↓</button>
                  <button type="button" className="button small ghost danger-text" data-focus="remove" onClick={() => remove(index)} aria-label={`Remove ${name}`}>Remove</button>
                </div>
              </li>
            )
          })}
        </ol>
      )}
      {errors.blocks && <p className="field-error">{errors.blocks}</p>}
      <div>
        <button type="button" className="button" onClick={add} disabled={blocks.length >= MAX_BLOCKS}>+ Add link block</button>
      </div>
      <p className="visually-hidden" aria-live="polite" role="status">{announcement}</p>
    </div>
  )
}
