// The `config` JSON column of overlays and splash pages: reading it back and applying changes.
// Splash pages import these too; they live here because overlays came first.

/** A stored config value: text or a whole number. */
export type ConfigValue = string | number

/** Parses a `config` column; anything but a JSON object reads as `{}`. */
export function parseConfigJson(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text)
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/**
 * The config of `fields` after applying `changes` to `current`: a given value replaces the stored
 * one (text trimmed), empty text removes it, an absent field keeps it. Other keys are dropped, so
 * only a type's own fields are ever stored.
 */
export function mergeConfigFields(fields: readonly string[], current: Record<string, unknown>, changes: Record<string, unknown>): Record<string, ConfigValue> {
  const merged: Record<string, ConfigValue> = {}
  for (const field of fields) {
    const given = changes[field]
    const value = given === undefined ? current[field] : typeof given === 'string' ? given.trim() : given
    if ((typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value))) merged[field] = value
  }
  return merged
}

/** The config's non-blank text values (what visitors' pages show), by key. */
export function textFieldsOf(config: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === 'string' && value.trim() !== '') fields[key] = value
  }
  return fields
}
