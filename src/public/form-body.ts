// HTML forms on the public pages post `application/x-www-form-urlencoded` (the API itself takes
// JSON only). The parser is added inside the public routes' own plugin scope, so /api never
// accepts form bodies, and it takes small bodies only: a password or a short contact message.
import type { FastifyInstance } from 'fastify'

/** Largest form body accepted, in bytes. */
export const FORM_BODY_LIMIT = 4_096

/** Form fields by name; the first value of a repeated field wins. No prototype, so no pollution. */
export type FormFields = Record<string, string>

/** Parses a urlencoded body into fields. */
export function parseFormFields(body: string): FormFields {
  const fields: FormFields = Object.create(null)
  for (const [name, value] of new URLSearchParams(body)) {
    if (!(name in fields)) fields[name] = value
  }
  return fields
}

/** Adds the form parser to `scope` (a plugin's encapsulated instance). */
export function installFormBodyParser(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    done(null, parseFormFields(body as string))
  })
}

/** The text of field `name` from a parsed body (form or JSON), or '' when absent or not text. */
export function formField(body: unknown, name: string): string {
  if (body === null || typeof body !== 'object') return ''
  const value = Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined
  return typeof value === 'string' ? value : ''
}
