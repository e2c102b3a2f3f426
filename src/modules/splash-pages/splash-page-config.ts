// What a splash page stores in its `config`: the page a visitor sees before going on.
import { mergeConfigFields, type ConfigValue } from '../overlays/config-json.js'
import { DEFAULT_SPLASH_COUNTER, SPLASH_TITLE_RULE, type SplashPageUpdateInput } from './splash-page.schemas.js'
import { ValidationError } from '../../core/errors.js'

const SPLASH_PAGE_FIELDS = ['title', 'description', 'image', 'link', 'counter'] as const

/**
 * The stored config after applying `input` to `current` (see mergeConfigFields); the title is
 * required and the counter defaults to DEFAULT_SPLASH_COUNTER seconds.
 */
export function buildSplashPageConfig(input: SplashPageUpdateInput, current: Record<string, unknown> = {}): Record<string, ConfigValue> {
  const config = mergeConfigFields(SPLASH_PAGE_FIELDS, current, input)
  // A title of spaces only trims to nothing.
  if (config.title === undefined) throw ValidationError.field('title', SPLASH_TITLE_RULE)
  config.counter ??= DEFAULT_SPLASH_COUNTER
  return config
}
