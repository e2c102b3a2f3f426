// What each CTA overlay type stores in its `config` (decisions §6: CTA overlays).
import { mergeConfigFields, parseConfigJson, textFieldsOf, type ConfigValue } from './config-json.js'
import type { OverlayType, OverlayUpdateInput } from './overlay.schemas.js'
import { ValidationError } from '../../core/errors.js'

/** An overlay as visitors see it: its type and its non-blank text fields. */
export interface OverlayContent {
  id: number
  type: OverlayType
  config: Record<string, string>
}

/** Reads a stored overlay for visitors; null for a type no page knows (a hand-edited row). */
export function readOverlayContent(stored: { id: number; type: string; config: string }): OverlayContent | null {
  if (!Object.hasOwn(OVERLAY_TYPE_FIELDS, stored.type)) return null
  return { id: stored.id, type: stored.type as OverlayType, config: textFieldsOf(parseConfigJson(stored.config)) }
}

interface OverlayTypeFields {
  /** The field an overlay of this type cannot do without. */
  required: 'message' | 'email'
  optional: readonly string[]
}

const OVERLAY_TYPE_FIELDS: Record<OverlayType, OverlayTypeFields> = {
  // A message with an optional button (`label`, `link`) and colors.
  message: { required: 'message', optional: ['label', 'link', 'color', 'bg'] },
  // A contact form; submissions are sent to `email`.
  contact: { required: 'email', optional: ['title', 'description', 'label'] },
}

/**
 * The stored config of an overlay of `type` after applying `input` to `current` (see
 * mergeConfigFields); throws when the type's required field would be missing.
 */
export function buildOverlayConfig(type: OverlayType, input: OverlayUpdateInput, current: Record<string, unknown> = {}): Record<string, ConfigValue> {
  const { required, optional } = OVERLAY_TYPE_FIELDS[type]
  const changes: Record<string, unknown> = { ...input }
  // Colors are stored in one spelling, as channels do.
  for (const field of ['color', 'bg'] as const) changes[field] = input[field]?.toLowerCase()
  const config = mergeConfigFields([required, ...optional], current, changes)
  if (config[required] === undefined) throw ValidationError.field(required, `is required for a ${type} overlay`)
  return config
}
