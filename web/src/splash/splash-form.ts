// The splash page editor's values and the client checks mirroring splash-page.schemas.ts.
import { isHttpUrlInput } from '../../../src/core/urls'

export interface SplashFormValues {
  name: string
  title: string
  description: string
  image: string
  link: string
  counter: string
}

export type SplashFormErrors = Partial<Record<keyof SplashFormValues, string>>
export const SPLASH_FIELDS: ReadonlyArray<keyof SplashFormValues> = ['name', 'title', 'description', 'image', 'link', 'counter']

export const emptySplashForm: SplashFormValues = { name: '', title: '', description: '', image: '', link: '', counter: '5' }

export function validateSplashForm(values: SplashFormValues): SplashFormErrors {
  const errors: SplashFormErrors = {}
  const name = values.name.trim()
  if (name.length < 2 || name.length > 100) errors.name = 'Must be 2 to 100 characters.'
  const title = values.title.trim()
  if (title.length < 1 || title.length > 100) errors.title = 'Must be 1 to 100 characters.'
  if (values.description.trim().length > 1000) errors.description = 'Must be at most 1000 characters.'
  for (const field of ['image', 'link'] as const) {
    const value = values[field].trim()
    if (value && !isHttpUrlInput(value)) errors[field] = 'Must be an http or https URL, or empty.'
  }
  const counter = values.counter.trim()
  if (!/^\d+$/.test(counter) || Number(counter) > 60) errors.counter = 'Must be a whole number of seconds from 0 to 60.'
  return errors
}

/** The request body: trimmed, empty optional fields sent as '' (which removes them on update). */
export function toSplashBody(values: SplashFormValues) {
  return {
    name: values.name.trim(),
    title: values.title.trim(),
    description: values.description.trim(),
    image: values.image.trim(),
    link: values.link.trim(),
    counter: Number(values.counter.trim()),
  }
}

/** What the preview sends: the form as it is, with stand-ins where a field would block rendering. */
export function toSplashPreviewBody(values: SplashFormValues) {
  const body = toSplashBody(values)
  const errors = validateSplashForm(values)
  return {
    ...body,
    name: errors.name ? 'Preview' : body.name,
    title: errors.title ? 'Your title' : body.title,
    image: errors.image ? '' : body.image,
    link: errors.link ? '' : body.link,
    counter: errors.counter ? 5 : body.counter,
    description: errors.description ? body.description.slice(0, 1000) : body.description,
  }
}
