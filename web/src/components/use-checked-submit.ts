// A small form's submission: its own checks first (the first invalid field gets the focus), then
// the request, whose refusal lands beside the field it names or on the form's error line.
import { useState, type FormEvent } from 'react'
import type { PlacedError } from './server-field-error'

export interface CheckedSubmit<Field extends string> {
  errors: Partial<Record<Field, string>>
  formError: string | undefined
  submitting: boolean
  submit(event: FormEvent<HTMLFormElement>): Promise<void>
  /** Forgets a field's error (its rule changed with another field). */
  clearError(field: Field): void
}

export function useCheckedSubmit<Field extends string>(options: {
  /** The client's checks: an empty object when the form may be sent. */
  validate(): Partial<Record<Field, string>>
  send(): Promise<unknown>
  /** Where a refusal belongs (placeServerError with the form's fields). */
  place(error: unknown): PlacedError<Field>
}): CheckedSubmit<Field> {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [formError, setFormError] = useState<string>()
  const [submitting, setSubmitting] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const found = options.validate()
    setErrors(found)
    setFormError(undefined)
    if (Object.keys(found).length > 0) {
      event.currentTarget.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
      return
    }
    setSubmitting(true)
    try {
      await options.send()
    } catch (error) {
      const placed = options.place(error)
      if (placed.field) setErrors({ [placed.field]: placed.message } as Partial<Record<Field, string>>)
      else setFormError(placed.message)
    } finally {
      setSubmitting(false)
    }
  }

  const clearError = (field: Field) => setErrors((current) => ({ ...current, [field]: undefined }))
  return { errors, formError, submitting, submit, clearError }
}
