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

type SchemaNode = TSchema & { anyOf?: SchemaNode[]; properties?: Record<string, { const?: unknown }> }

/**
 * For a union of objects told apart by a constant `type` (one body shape per kind, e.g. QR codes),
 * a checker per shape, so that a failing value hears of the shape it names only: a Wi-Fi code's
 * body is told about `data.ssid`, not that it is no valid text code. Undefined for other schemas.
 */
function shapesByType(schema: SchemaNode): Map<unknown, { check: ReturnType<typeof Compile>; path: string }> | undefined {
  const branches = schema.anyOf
  if (!branches?.every((branch) => branch.properties?.type?.const !== undefined)) return undefined
  return new Map(branches.map((branch, index) => [branch.properties!.type!.const, { check: Compile(branch), path: `#/anyOf/${index}` }]))
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema)
  const shapes = shapesByType(schema as SchemaNode)
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {}
  return (value: unknown): any => {
    let converted = value
    if (httpPart !== 'body' && value && typeof value === 'object') {
      converted = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, convertText(properties[key], item)]),
      )
    }
    const namedType = converted !== null && typeof converted === 'object' ? (converted as { type?: unknown }).type : undefined
    if (check.Check(converted)) return { value: converted }
    const shape = namedType === undefined ? undefined : shapes?.get(namedType)
    if (!shape) return { error: check.Errors(converted) }
    // Paths stay relative to the whole schema, where the messages (errorMessage) are looked up.
    return { error: shape.check.Errors(converted).map((issue) => ({ ...issue, schemaPath: shape.path + issue.schemaPath.slice(1) })) }
  }
}
