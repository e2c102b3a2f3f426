// Copies a text to the clipboard and says so for a moment.
import { useEffect, useState } from 'react'

/** `what`: read after the label by screen readers, for rows of identical buttons ("Copy spring-sale"). */
export function CopyButton({ text, label = 'Copy', what, className = 'button small' }: { text: string; label?: string; what?: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), 2000)
    return () => clearTimeout(timer)
  }, [state])

  async function copy() {
    try {
      if (navigator.clipboard) await navigator.clipboard.writeText(text)
      else copyWithSelection(text)
      setState('copied')
    } catch {
      setState('failed')
    }
  }

  return (
    <button type="button" className={className} onClick={copy} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
      {what && <span className="visually-hidden"> {what}</span>}
    </button>
  )
}

/** Browsers give the Clipboard API to secure contexts only; a dashboard served over plain http falls back to a selection. */
function copyWithSelection(text: string): void {
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.append(area)
  area.select()
  const copied = document.execCommand('copy')
  area.remove()
  if (!copied) throw new Error('copy refused')
}
