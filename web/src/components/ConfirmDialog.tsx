// A modal question with a confirm and a cancel button; Escape cancels, focus starts on Cancel and
// Tab stays inside the dialog. Enter in a field of the question (a name typed to confirm) does what
// the confirm button does, once it may.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react'

interface ConfirmDialogProps {
  title: string
  children: ReactNode
  confirmLabel: string
  busy?: boolean
  /** The confirm button stays off until the question inside is answered (a name typed). */
  confirmDisabled?: boolean
  error?: string
  onConfirm(): void
  onCancel(): void
}

export function ConfirmDialog({ title, children, confirmLabel, busy, confirmDisabled, error, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId()
  const cancelRef = useRef<HTMLButtonElement>(null)
  const dialogRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    cancelRef.current?.focus()
    return () => previous?.focus()
  }, [])

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') return onCancel()
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault()
      if (!busy && !confirmDisabled) onConfirm()
      return
    }
    if (event.key !== 'Tab' || !dialogRef.current) return
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>('button:not(:disabled), a[href], input, select, textarea')]
    const first = focusable[0]
    const last = focusable[focusable.length - 1]
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last?.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first?.focus()
    }
  }

  return (
    <div className="backdrop" onKeyDown={onKeyDown}>
      <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId} ref={dialogRef}>
        <h2 id={titleId}>{title}</h2>
        <div className="dialog-body">{children}</div>
        {error && <p className="field-error" role="alert">{error}</p>}
        <div className="dialog-actions">
          <button type="button" className="button" ref={cancelRef} onClick={onCancel}>Cancel</button>
          <button type="button" className="button danger" onClick={onConfirm} disabled={busy || confirmDisabled}>{busy ? 'Working…' : confirmLabel}</button>
        </div>
      </div>
    </div>
  )
}
