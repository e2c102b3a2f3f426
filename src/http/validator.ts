// Request validation with TypeBox. Body values keep their JSON types (a string is never coerced
// into a boolean or a number). Query and path values arrive as text and are converted only when
// the whole text is a well-formed value: "1.5" or "12abc" stays text and fails an integer rule.
// Every string that passes the schema, and every object key, is then held to the one rule for
// client text (core/text.ts): no module repeats it, and no field can forget it. Before the check,
// optional fields sent as null or "" are read as the schema's keywords say (ADR 013,
// core/optional-fields.ts): "not given", cleared on an update, or refused.
import type { FastifySchemaCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { readOptionalFields } from '../core/optional-fields.js'
import { MULTILINE_KEYWORD } from '../core/schemas.js'
import { escapeForbiddenCharacters, textRuleBroken } from '../core/text.js'
import type { ValidationIssue } from '../core/validation-messages.js'

const INTEGER_TEXT = /^-?\d{1,16}$/
const NUMBER_TEXT = /^-?\d{1,16}(\.\d{1,16})?$/

type SchemaNode = Record<string, unknown> | undefined

function convertText(schema: SchemaNode, value: unknown): unknown {
  if (typeof value !== 'string' || !schema) return value
  const type = schema.type
  if (type === 'integer') return INTEGER_TEXT.test(value) ? Number(value) : value
  if (type === 'number') return NUMBER_TEXT.test(value) ? Number(value) : value
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value
  return value
}

/** The schema of `key` inside `schema` (an object's property, an array's items), any union branch that has one. */
function childSchema(schema: SchemaNode, key: string): SchemaNode {
  if (!schema) return undefined
  for (const branch of (schema.anyOf as SchemaNode[] | undefined) ?? []) {
    const found = childSchema(branch, key)
    if (found) return found
  }
  const properties = schema.properties as Record<string, SchemaNode> | undefined
  if (properties?.[key]) return properties[key]
  if (schema.items && typeof schema.items === 'object') return schema.items as SchemaNode
  const additional = schema.additionalProperties
  if (additional && typeof additional === 'object') return additional as SchemaNode
  const patterns = schema.patternProperties as Record<string, SchemaNode> | undefined
  return patterns ? Object.values(patterns)[0] : undefined
}

/** Of a union of shapes told apart by `type` (QR codes), the one `value` names; else the schema itself. */
function shapeNamedBy(schema: SchemaNode, value: unknown): SchemaNode {
  const type = value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined
  if (type === undefined || !schema?.anyOf) return schema
  const named = (schema.anyOf as SchemaNode[]).find((branch) => (branch?.properties as Record<string, { const?: unknown }> | undefined)?.type?.const === type)
  return named ?? schema
}

function isMultiline(schema: SchemaNode): boolean {
  if (!schema) return false
  if (schema[MULTILINE_KEYWORD] === true) return true
  return ((schema.anyOf as SchemaNode[] | undefined) ?? []).some(isMultiline)
}

/**
 * The first string (or object key) in `value` that breaks the text rule, as a validation issue
 * pointing at it. A string may hold line breaks when its schema, or one above it (a QR code's
 * free-form `data`), is marked multi-line.
 */
export function findTextIssue(value: unknown, given: SchemaNode, path = '', multiline = false): ValidationIssue | null {
  const schema = shapeNamedBy(given, value)
  const lines = multiline || isMultiline(schema)
  if (typeof value === 'string') {
    const rule = textRuleBroken(value, lines)
    return rule ? { instancePath: path, keyword: 'text', message: rule } : null
  }
  if (value === null || typeof value !== 'object') return null
  for (const [key, item] of Object.entries(value)) {
    const itemPath = `${path}/${escapeForbiddenCharacters(key)}`
    const keyRule = Array.isArray(value) ? null : textRuleBroken(key, false)
    if (keyRule) return { instancePath: itemPath, keyword: 'text', message: `is not an acceptable field name: it ${keyRule}` }
    const issue = findTextIssue(item, childSchema(schema, key), itemPath, lines)
    if (issue) return issue
  }
  return null
}

type ShapeSchema = TSchema & { anyOf?: ShapeSchema[]; properties?: Record<string, { const?: unknown }> }

/**
 * For a union of objects told apart by a constant `type` (one body shape per kind, e.g. QR codes),
 * a checker per shape, so that a failing value hears of the shape it names only: a Wi-Fi code's
 * body is told about `data.ssid`, not that it is no valid text code. Undefined for other schemas.
 */
function shapesByType(schema: ShapeSchema): Map<unknown, { check: ReturnType<typeof Compile>; path: string }> | undefined {
  const branches = schema.anyOf
  if (!branches?.every((branch) => branch.properties?.type?.const !== undefined)) return undefined
  return new Map(branches.map((branch, index) => [branch.properties!.type!.const, { check: Compile(branch), path: `#/anyOf/${index}` }]))
}

/**
 * Fastify asks for every route's validators as an app starts; each is compiled when its route is
 * first asked instead (a few milliseconds then), so an app's start does not compile ~400 schemas it
 * may never use: the tests build hundreds of apps, each asked a few routes.
 * test/http/route-schemas-compile.test.ts compiles every route's schemas, so a schema that cannot be
 * compiled still fails a test.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  let compiled: { check: ReturnType<typeof Compile>; shapes: ReturnType<typeof shapesByType> } | undefined
  const root = schema as unknown as Record<string, unknown>
  const properties = (root.properties as Record<string, SchemaNode> | undefined) ?? {}
  return (value: unknown): any => {
    compiled ??= { check: Compile(schema), shapes: shapesByType(schema as ShapeSchema) }
    const { check, shapes } = compiled
    let converted = value
    if (httpPart !== 'body' && value && typeof value === 'object') {
      converted = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, convertText(properties[key], item)]),
      )
    }
    const reading = readOptionalFields(converted, root)
    if (reading.issue) return { error: [reading.issue] }
    converted = reading.value
    const namedType = converted !== null && typeof converted === 'object' ? (converted as { type?: unknown }).type : undefined
    if (check.Check(converted)) {
      const textIssue = findTextIssue(converted, root)
      return textIssue ? { error: [textIssue] } : { value: converted }
    }
    const shape = namedType === undefined ? undefined : shapes?.get(namedType)
    if (!shape) return { error: check.Errors(converted) }
    // Paths stay relative to the whole schema, where the messages (errorMessage) are looked up.
    return { error: shape.check.Errors(converted).map((issue) => ({ ...issue, schemaPath: shape.path + issue.schemaPath.slice(1) })) }
  }
}
