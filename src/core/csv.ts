// CSV as RFC 4180 writes it: fields separated by commas, a field quoted when it holds a comma, a
// quote, a line break or surrounding spaces (quotes inside doubled), lines ended by CRLF. Lists
// and objects are written as their JSON text, null and undefined as an empty field.
//
// Exports are opened in spreadsheets, and a cell a visitor filled (a Referer host, a link title)
// that begins with `=`, `+`, `-`, `@`, a tab or a CR would be run as a formula there (OWASP, "CSV
// Injection"). Such a text is written with a single quote before it, and quoted. So that Linkwell's
// own importer reads every value back exactly, a text that already begins with a single quote gets
// one more too: every written text that begins with a quote carries exactly one added quote, which
// `restoreNeutralisedCell` takes away. Numbers are written as they are (`-5` is no formula).

const FORMULA_START = /^[=+\-@\t\r']/

function field(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (FORMULA_START.test(text)) return `"'${text.replace(/"/g, '""')}"`
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One CSV line of `values`, CRLF included; a text a spreadsheet would run as a formula is neutralised. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(field).join(',')}\r\n`
}

/** A cell of a file `csvLine` wrote, as it was before the writer neutralised it (its added leading quote taken away). */
export function restoreNeutralisedCell(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell
}
