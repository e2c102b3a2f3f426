// A form's error line, and an action's beside its buttons: what was refused or went wrong, where
// the person looks, announced at once (role alert). Nothing is drawn when there is nothing to say.
import type { ReactNode } from 'react'
import { messageOf } from '../api/client'

interface FormErrorProps {
  /** The line: a form's `formError` (useCheckedSubmit), or a sentence of the page's own. */
  message?: ReactNode
  /** Or what an action threw: a mutation's `error` (null while there is none), in its own words. */
  error?: unknown
  /** Beside a small control (a row's button, the workspace switcher). */
  small?: boolean
}

export function FormError({ message, error, small }: FormErrorProps) {
  const text = message ?? (error ? messageOf(error) : undefined)
  if (!text) return null
  return <p className={small ? 'form-error small' : 'form-error'} role="alert">{text}</p>
}
