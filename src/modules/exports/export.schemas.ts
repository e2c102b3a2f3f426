// The exports' query strings.
import { Type, type Static } from 'typebox'
import { TimeBound } from '../../core/schemas.js'
import { CLICK_EXPORT_FORMATS, CONVERSION_EXPORT_FORMATS, LINK_EXPORT_FORMATS } from './export.service.js'

const formatOf = (formats: readonly string[], description: string) =>
  Type.Union(formats.map((format) => Type.Literal(format)), { errorMessage: `must be one of ${formats.join(', ')}`, description })

export const LinkExportQuery = Type.Object({
  format: Type.Optional(formatOf(LINK_EXPORT_FORMATS, '`csv` (default: a header line, then a line per link; lists and targeting as JSON text) or `json` (an array of records)')),
})
export type LinkExportQuery = Static<typeof LinkExportQuery>

export const ClickExportQuery = Type.Object({
  format: Type.Optional(formatOf(CLICK_EXPORT_FORMATS, '`csv` (default: a header line, then a line per click) or `ndjson` (a JSON record per line)')),
  from: Type.Optional(TimeBound('first second')),
  to: Type.Optional(TimeBound('last second')),
})
export type ClickExportQuery = Static<typeof ClickExportQuery>

export const ConversionExportQuery = Type.Object({
  format: Type.Optional(formatOf(CONVERSION_EXPORT_FORMATS, '`csv` (default: a header line, then a line per lead or sale; metadata as JSON text) or `ndjson` (a JSON record per line)')),
  from: Type.Optional(TimeBound('first second')),
  to: Type.Optional(TimeBound('last second')),
})
export type ConversionExportQuery = Static<typeof ConversionExportQuery>
