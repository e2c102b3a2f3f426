// The pixel form's values and checks. The tag's form per provider comes from the server
// (GET /api/pixels/providers), so this check and the server's are one rule, not two copies.
import type { paths } from '../api/schema'

export type PixelProvider = paths['/api/pixels/providers']['get']['responses'][200]['content']['application/json']['providers'][number]

export interface PixelFormValues {
  type: string
  name: string
  tag: string
}

export type PixelField = 'type' | 'name' | 'tag'
export const PIXEL_FIELDS: readonly PixelField[] = ['type', 'name', 'tag']
export type PixelFormErrors = Partial<Record<PixelField, string>>

/** The server's message for a refused tag, as shown beside the field: "Must be <expected>." */
export function tagRule(provider: PixelProvider): string {
  return `Must be ${provider.expected}.`
}

export function validatePixelForm(values: PixelFormValues, provider: PixelProvider | undefined): PixelFormErrors {
  const errors: PixelFormErrors = {}
  if (!provider) errors.type = 'Choose the provider.'
  const name = values.name.trim()
  if (!name) errors.name = 'Enter a name.'
  else if (name.length > 100) errors.name = 'Use at most 100 characters.'
  const tag = values.tag.trim()
  if (!tag) errors.tag = provider ? `Enter the tag, like ${provider.example}.` : 'Enter the tag.'
  else if (provider && !new RegExp(provider.pattern, provider.flags).test(tag)) errors.tag = tagRule(provider)
  return errors
}
