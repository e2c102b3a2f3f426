// Every form's submission: its own checks first (the first invalid field gets the focus), then the
// request, whose refusal lands beside the field the server names (envelope `field`), or on the
// form's error line. Long forms also keep a summary line at the top.
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { placeServerError, type ServerFields } from './server-field-error'

export interface CheckedSubmit<Field extends string> {
  errors: Partial<Record<Field, string>>
  /** The form's error line: a refusal no field shows, or (with `summary`) what went wrong. */
  formError: string | undefined
  submitting: boolean
  /** The last submission was sent and accepted (until the next one starts). */
  succeeded: boolean
  submit(event: FormEvent<HTMLFormElement>): Promise<void>
  /** Shows (or, with undefined, forgets) a field's error outside a submission: another check, another field's change. */
  setError(field: Field, message: string | undefined): void
  /** Forgets every error (the form changed shape). */
  clearErrors(): void
}

export interface CheckedSubmitOptions<Field extends string> {
  /** The client's checks: an empty object when the form may be sent. */
  validate(): Partial<Record<Field, string>>
  /** Sends the form; a throw (ApiError) is a refusal. */
  send(): Promise<unknown>
  /** The fields a refusal may be shown beside (placeServerError). */
  fields: ServerFields<Field>
  /**
   * Long forms, where a field's message may be out of sight: the form's error line says this when
   * the client's checks fail, and repeats the server's message when it is placed beside a field.
   */
  summary?: string
}

export function useCheckedSubmit<Field extends string>(options: CheckedSubmitOptions<Field>): CheckedSubmit<Field> {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [formError, setFormError] = useState<string>()
  const [submitting, setSubmitting] = useState(false)
  const [succeeded, setSucceeded] = useState(false)
  // Once the errors are on screen, the first marked field of the submitted form takes the focus.
  const formRef = useRef<HTMLFormElement | null>(null)
  const [focusRequests, setFocusRequests] = useState(0)
  useEffect(() => {
    if (focusRequests > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [focusRequests])
  const focusFirstInvalid = () => setFocusRequests((count) => count + 1)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    formRef.current = event.currentTarget
    const found = options.validate()
    setErrors(found)
    setFormError(undefined)
    setSucceeded(false)
    if (Object.keys(found).length > 0) {
      if (options.summary) setFormError(options.summary)
      focusFirstInvalid()
      return
    }
    setSubmitting(true)
    try {
      await options.send()
      setSucceeded(true)
    } catch (error) {
      const placed = placeServerError(error, options.fields)
      if (placed.field) {
        setErrors({ [placed.field]: placed.message } as Partial<Record<Field, string>>)
        if (options.summary) setFormError(error instanceof Error ? error.message : placed.message)
        focusFirstInvalid()
      } else {
        setFormError(placed.message)
      }
    } finally {
      setSubmitting(false)
    }
  }

  const setError = (field: Field, message: string | undefined) => setErrors((current) => ({ ...current, [field]: message }))
  const clearErrors = () => setErrors({})
  return { errors, formError, submitting, succeeded, submit, setError, clearErrors }
}
