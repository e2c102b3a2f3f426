// The channel form's values and checks, mirroring the server (decisions §6: Channels).
export interface ChannelFormValues {
  name: string
  description: string
  /** `#rgb` or `#rrggbb`. */
  color: string
  starred: boolean
}

export type ChannelField = 'name' | 'description' | 'color'
export const CHANNEL_FIELDS: readonly ChannelField[] = ['name', 'description', 'color']
export type ChannelFormErrors = Partial<Record<ChannelField, string>>

/** Colors offered with one click; any other is a click on the picker away. */
export const CHANNEL_SWATCHES = ['#4f46e5', '#0ea5e9', '#10b981', '#f59e0b', '#ef4444', '#ec4899', '#64748b']

export const emptyChannelForm: ChannelFormValues = { name: '', description: '', color: CHANNEL_SWATCHES[0]!, starred: false }

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i

export function validateChannelForm(values: ChannelFormValues): ChannelFormErrors {
  const errors: ChannelFormErrors = {}
  const name = values.name.trim()
  if (!name) errors.name = 'Enter a name.'
  else if (name.length < 2 || name.length > 100) errors.name = 'Use 2 to 100 characters.'
  if (values.description.length > 500) errors.description = 'Use at most 500 characters.'
  if (!HEX_COLOR.test(values.color)) errors.color = 'Use a HEX color like #1e90ff or #fff.'
  return errors
}

export function toChannelBody(values: ChannelFormValues) {
  return { name: values.name.trim(), description: values.description, color: values.color.toLowerCase(), starred: values.starred }
}

/** `#abc` → `#aabbcc`: the color input takes the long form only. */
export function longHexColor(color: string): string {
  return /^#[0-9a-f]{3}$/i.test(color) ? `#${[...color.slice(1)].map((digit) => digit + digit).join('')}`.toLowerCase() : color.toLowerCase()
}
