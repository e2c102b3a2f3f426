// Request validation with TypeBox. Body values keep their JSON types (a string is never coerced
// into a boolean or a number). Query and path values arrive as text and are converted only when
// the whole text is a well-formed value: "1.5" or "12abc" stays text and fails an integer rule.
import type { FastifySchemaCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'

const INTEGER_TEXT = /^-?\d{1,16}$/
const NUMBER_TEXT = /^-?\d{1,16}(\.\d{1,16})?$/

function convertText(schema: Record<string, unknown> | undefined, value: unknown): unknown {
  if (typeof value !== 'string' || !schema) return value
  const type = schema.type
  if (type === 'integer') return INTEGER_TEXT.test(value) ? Number(value) : value
  if (type === 'number') return NUMBER_TEXT.test(value) ? Number(value) : value
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value
  return value
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema)
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {}
  return (value: unknown): any => {
    let converted = value
    if (httpPart !== 'body' && value && typeof value === 'object') {
      converted = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, convertText(properties[key], item)]),
      )
    }
    if (check.Check(converted)) return { value: converted }
    return { error: check.Errors(converted) }
  }
}
