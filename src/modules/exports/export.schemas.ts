// The exports' query strings.
import { Type, type Static } from 'typebox'
import { CLICK_EXPORT_FORMATS, CONVERSION_EXPORT_FORMATS, LINK_EXPORT_FORMATS } from './export.service.js'
import { TIMESTAMP_INPUT_PATTERN } from '../../core/time.js'

const formatOf = (formats: readonly string[], description: string) =>
  Type.Union(formats.map((format) => Type.Literal(format)), { errorMessage: `must be one of ${formats.join(', ')}`, description })

export const LinkExportQuery = Type.Object({
  format: Type.Optional(formatOf(LINK_EXPORT_FORMATS, '`csv` (default: a header line, then a line per link; lists and targeting as JSON text) or `json` (an array of records)')),
})
export type LinkExportQuery = Static<typeof LinkExportQuery>

const Bound = (end: string) => Type.String({
  pattern: TIMESTAMP_INPUT_PATTERN,
  errorMessage: 'must be a date YYYY-MM-DD or a date-time YYYY-MM-DD HH:MM:SS',
  description: `UTC, \`YYYY-MM-DD\` or \`YYYY-MM-DD HH:MM:SS\`; a date alone means its ${end}; left out, no bound`,
})

export const ClickExportQuery = Type.Object({
  format: Type.Optional(formatOf(CLICK_EXPORT_FORMATS, '`csv` (default: a header line, then a line per click) or `ndjson` (a JSON record per line)')),
  from: Type.Optional(Bound('first second')),
  to: Type.Optional(Bound('last second')),
})
export type ClickExportQuery = Static<typeof ClickExportQuery>

export const ConversionExportQuery = Type.Object({
  format: Type.Optional(formatOf(CONVERSION_EXPORT_FORMATS, '`csv` (default: a header line, then a line per lead or sale; metadata as JSON text) or `ndjson` (a JSON record per line)')),
  from: Type.Optional(Bound('first second')),
  to: Type.Optional(Bound('last second')),
})
export type ConversionExportQuery = Static<typeof ConversionExportQuery>
