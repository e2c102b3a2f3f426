// What a splash page stores in its `config`: the page a visitor sees before going on.
import { mergeConfigFields, parseConfigJson, textFieldsOf, type ConfigValue } from '../overlays/config-json.js'
import { DEFAULT_SPLASH_COUNTER, MAX_SPLASH_COUNTER, SPLASH_TITLE_RULE, type SplashPageUpdateInput } from './splash-page.schemas.js'
import { ValidationError } from '../../core/errors.js'

/** A splash page's fields as visitors see them (and the API reads them back): the one reading of a stored config. */
export interface SplashContent {
  title: string
  description: string | null
  image: string | null
  link: string | null
  /** Seconds before the visitor goes on: the stored whole number within the schema's range, else the default. */
  counter: number
}

/** The seconds a stored `counter` stands for (a hand-edited row may hold anything). */
export function splashCounterOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) return DEFAULT_SPLASH_COUNTER
  return Math.min(Math.max(value, 0), MAX_SPLASH_COUNTER)
}

/** Reads a stored `config` column as visitors see it. */
export function readSplashContent(configText: string): SplashContent {
  const config = parseConfigJson(configText)
  const text = textFieldsOf(config)
  return {
    title: text.title ?? '',
    description: text.description ?? null,
    image: text.image ?? null,
    link: text.link ?? null,
    counter: splashCounterOf(config.counter),
  }
}

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
