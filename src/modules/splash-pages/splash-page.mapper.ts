// Splash page rows to API records.
import type { SplashPageRow } from '../../db/schema.js'

export function toSplashPageRecord(page: SplashPageRow) {
  return { id: page.id, name: page.name, date: page.created_at }
}
