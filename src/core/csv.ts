// CSV as RFC 4180 writes it: fields separated by commas, a field quoted when it holds a comma, a
// quote, a line break or surrounding spaces (quotes inside doubled), lines ended by CRLF. Lists
// and objects are written as their JSON text, null and undefined as an empty field.

function field(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One CSV line of `values`, CRLF included. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(field).join(',')}\r\n`
}
