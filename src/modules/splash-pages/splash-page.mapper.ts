// Splash page rows to API records.
import type { SplashPageRow } from '../../db/schema.js'
import { parseConfigJson } from '../overlays/config-json.js'
import { DEFAULT_SPLASH_COUNTER } from './splash-page.schemas.js'

export function toSplashPageRecord(page: SplashPageRow) {
  return { id: page.id, name: page.name, date: page.created_at }
}

/** The record with its stored fields (the response schema keeps only the known ones). */
export function toSplashPageDetails(page: SplashPageRow) {
  const config = parseConfigJson(page.config)
  return { ...config, title: String(config.title ?? ''), counter: typeof config.counter === 'number' ? config.counter : DEFAULT_SPLASH_COUNTER, ...toSplashPageRecord(page) }
}
