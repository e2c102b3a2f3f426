// The CTA overlay editor's values and the client checks mirroring overlay.schemas.ts and
// overlay-config.ts: each type has its own fields, one of them required.
import { isHttpUrlInput } from '../../../src/core/urls'

export type OverlayType = 'message' | 'contact'

export interface OverlayFormValues {
  type: OverlayType
  name: string
  // message
  message: string
  label: string
  link: string
  color: string
  bg: string
  // contact (plus label)
  title: string
  description: string
  email: string
}

export type OverlayFormErrors = Partial<Record<keyof OverlayFormValues, string>>

/** Every field of the form, as the request body names it. */
export const OVERLAY_FORM_FIELDS: ReadonlyArray<keyof OverlayFormValues> = ['type', 'name', 'message', 'label', 'link', 'color', 'bg', 'title', 'description', 'email']

export const emptyOverlayForm: OverlayFormValues = { type: 'message', name: '', message: '', label: '', link: '', color: '', bg: '', title: '', description: '', email: '' }

/** The fields each type stores (the rest are not sent). */
export const OVERLAY_FIELDS: Record<OverlayType, ReadonlyArray<Exclude<keyof OverlayFormValues, 'type' | 'name'>>> = {
  message: ['message', 'label', 'link', 'color', 'bg'],
  contact: ['title', 'description', 'label', 'email'],
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function validateOverlayForm(values: OverlayFormValues): OverlayFormErrors {
  const errors: OverlayFormErrors = {}
  const text = (field: keyof OverlayFormValues) => values[field].trim()
  if (text('name').length < 2 || text('name').length > 100) errors.name = 'Must be 2 to 100 characters.'
  if (text('label').length > 50) errors.label = 'Must be at most 50 characters.'
  if (values.type === 'message') {
    if (!text('message')) errors.message = 'Enter the message visitors see.'
    else if (text('message').length > 500) errors.message = 'Must be 1 to 500 characters.'
    if (text('link') && !isHttpUrlInput(text('link'))) errors.link = 'Must be an http or https URL, or empty.'
    for (const field of ['color', 'bg'] as const) {
      if (text(field) && !HEX.test(text(field))) errors[field] = 'Must be a HEX color like #1e90ff or #fff, or empty.'
    }
  } else {
    if (!text('email')) errors.email = 'Enter the address that receives the messages.'
    else if (text('email').length > 254 || !EMAIL.test(text('email'))) errors.email = 'Must be a valid e-mail address.'
    if (text('title').length > 100) errors.title = 'Must be at most 100 characters.'
    if (text('description').length > 500) errors.description = 'Must be at most 500 characters.'
  }
  return errors
}

/** The fields of the overlay's type, trimmed; empty ones sent as '' (which removes them on update). */
function typeFields(values: OverlayFormValues) {
  return Object.fromEntries(OVERLAY_FIELDS[values.type].map((field) => [field, values[field].trim()]))
}

export function toOverlayCreateBody(values: OverlayFormValues) {
  return { type: values.type, name: values.name.trim(), ...typeFields(values) }
}

export function toOverlayUpdateBody(values: OverlayFormValues) {
  return { name: values.name.trim(), ...typeFields(values) }
}

/** What the preview sends: the form as it is, with stand-ins or blanks where a field would block rendering. */
export function toOverlayPreviewBody(values: OverlayFormValues): { type: OverlayType; name: string } & Record<string, string> {
  const errors = validateOverlayForm(values)
  const fields: Record<string, string> = typeFields(values)
  for (const field of Object.keys(fields)) if (errors[field as keyof OverlayFormErrors]) fields[field] = ''
  if (values.type === 'message' && !fields.message) fields.message = 'Your message'
  if (values.type === 'contact' && !fields.email) fields.email = 'preview@example.com'
  return { type: values.type, name: errors.name ? 'Preview' : values.name.trim(), ...fields }
}
