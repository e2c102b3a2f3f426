// The campaign form's values and checks, mirroring the server (decisions §6: Campaigns).
import { ALIAS_PATTERN } from '../../../src/core/link-limits'
export interface CampaignFormValues {
  name: string
  /** The rotator's slug; '' for none (on edit: removes the rotator). */
  slug: string
  isPublic: boolean
}

export type CampaignField = 'name' | 'slug'
export const CAMPAIGN_FIELDS: readonly CampaignField[] = ['name', 'slug']
export type CampaignFormErrors = Partial<Record<CampaignField, string>>

export const emptyCampaignForm: CampaignFormValues = { name: '', slug: '', isPublic: false }

const SLUG_PATTERN = new RegExp(ALIAS_PATTERN)

/** Name: 2 to 100 characters, optional on create (the server names it after the slug). Slug: 3 to 64 of letters, digits, _ and -. */
export function validateCampaignForm(values: CampaignFormValues, mode: 'create' | 'edit'): CampaignFormErrors {
  const errors: CampaignFormErrors = {}
  const name = values.name.trim()
  if (!name && mode === 'edit') errors.name = 'Enter a name.'
  else if (name && (name.length < 2 || name.length > 100)) errors.name = 'Use 2 to 100 characters.'
  if (values.slug && !SLUG_PATTERN.test(values.slug)) errors.slug = 'Use 3 to 64 letters, digits, _ or -.'
  return errors
}

/** The create body: empty fields left out, so the server picks its defaults. */
export function toCampaignCreateBody(values: CampaignFormValues): { name?: string; slug?: string; public: boolean } {
  return { ...(values.name.trim() ? { name: values.name.trim() } : {}), ...(values.slug ? { slug: values.slug } : {}), public: values.isPublic }
}

/** The update body: the name is required; an empty slug removes the rotator. */
export function toCampaignUpdateBody(values: CampaignFormValues): { name: string; slug: string; public: boolean } {
  return { name: values.name.trim(), slug: values.slug, public: values.isPublic }
}

/** The slug of a rotator URL (`…/r/<slug>`), or '' without a rotator. */
export function slugOfRotator(rotator: string | false): string {
  return rotator ? decodeURIComponent(rotator.slice(rotator.lastIndexOf('/r/') + 3)) : ''
}
