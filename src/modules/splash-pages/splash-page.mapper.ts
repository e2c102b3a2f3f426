// Splash page rows to API records.
import type { SplashPageRow } from '../../db/schema.js'
import { parseConfigJson } from '../overlays/config-json.js'
import { splashCounterOf } from './splash-page-config.js'

export function toSplashPageRecord(page: SplashPageRow) {
  return { id: page.id, name: page.name, date: page.created_at }
}

/** The record with its stored fields (the response schema keeps only the known ones). */
export function toSplashPageDetails(page: SplashPageRow) {
  const config = parseConfigJson(page.config)
  return { ...config, title: String(config.title ?? ''), counter: splashCounterOf(config.counter), ...toSplashPageRecord(page) }
}
