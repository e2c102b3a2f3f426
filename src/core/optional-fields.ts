// Null and empty optional fields (ADR 013): what clients send for a field they mean to leave out.
// Read from the schema before it checks a value, for every optional property of every object in
// it (nested ones included), so no route and no field repeats the rule:
// - null is "not given" (dropped), unless the field's schema takes null as a value (NullMeans);
// - "" or blank text is "not given" too, except in an update body (UpdateBody): there it reaches
//   the service as "" when the field is Clearable (the service clears it), and is refused otherwise.
// Required properties are left as they are: their schema refuses null and what is empty.
import { acceptsNull, CLEARS_KEYWORD, UPDATE_KEYWORD } from './schemas.js'
import type { ValidationIssue } from './validation-messages.js'

type SchemaNode = Record<string, unknown>

/** The value as the schema should see it, or the issue of a field an update may not empty. */
export type OptionalFieldsReading = { value: unknown; issue?: undefined } | { issue: ValidationIssue }

/** The rule told when a field without a message of its own is sent empty on an update. */
export const EMPTY_UPDATE_RULE = 'must not be empty: leave it out, or send null, to keep its value'

const ABSENT = Symbol('absent')

function isBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() === ''
}

/**
 * The object schema `value` meets inside `schema`, and its path: the schema itself, the union
 * branch named by the value's `type` (one body shape per QR type), or a union's only object branch.
 */
function objectShape(schema: SchemaNode, value: Record<string, unknown>, path: string): [SchemaNode, string] | undefined {
  if (schema.properties && typeof schema.properties === 'object') return [schema, path]
  const branches = schema.anyOf as SchemaNode[] | undefined
  if (!branches) return undefined
  let index = value.type === undefined ? -1 : branches.findIndex((branch) => (branch.properties as Record<string, SchemaNode> | undefined)?.type?.const === value.type)
  if (index < 0) {
    const objects = branches.flatMap((branch, at) => (branch.properties ? [at] : []))
    if (objects.length === 1) index = objects[0]!
  }
  return index < 0 ? undefined : objectShape(branches[index]!, value, `${path}/anyOf/${index}`)
}

function read(value: unknown, schema: SchemaNode | undefined, instancePath: string, schemaPath: string): OptionalFieldsReading {
  if (!schema || value === null || typeof value !== 'object') return { value }
  if (Array.isArray(value)) {
    const items = schema.items
    if (!items || typeof items !== 'object') return { value }
    let copy: unknown[] | undefined
    for (let index = 0; index < value.length; index += 1) {
      const reading = read(value[index], items as SchemaNode, `${instancePath}/${index}`, `${schemaPath}/items`)
      if (reading.issue) return reading
      if (reading.value !== value[index]) (copy ??= value.slice())[index] = reading.value
    }
    return { value: copy ?? value }
  }
  const object = value as Record<string, unknown>
  const shape = objectShape(schema, object, schemaPath)
  if (!shape) return { value }
  const [objectSchema, objectPath] = shape
  const properties = objectSchema.properties as Record<string, SchemaNode>
  const required = (objectSchema.required as string[] | undefined) ?? []
  const update = objectSchema[UPDATE_KEYWORD] === true
  let copy: Record<string, unknown> | undefined
  for (const key of Object.keys(object)) {
    if (!Object.hasOwn(properties, key)) continue
    const field = properties[key]!
    const item = object[key]
    const fieldPath = `${objectPath}/properties/${key}`
    let next: unknown
    if (required.includes(key)) {
      const reading = read(item, field, `${instancePath}/${key}`, fieldPath)
      if (reading.issue) return reading
      next = reading.value
    } else if (item === null) {
      next = acceptsNull(field) ? null : ABSENT
    } else if (isBlank(item)) {
      if (!update) next = ABSENT
      else if (field[CLEARS_KEYWORD] === true) next = ''
      else return { issue: { instancePath: `${instancePath}/${key}`, schemaPath: fieldPath, keyword: 'empty', message: EMPTY_UPDATE_RULE } }
    } else {
      const reading = read(item, field, `${instancePath}/${key}`, fieldPath)
      if (reading.issue) return reading
      next = reading.value
    }
    if (next === item) continue
    copy ??= { ...object }
    if (next === ABSENT) delete copy[key]
    else copy[key] = next
  }
  return { value: copy ?? object }
}

/**
 * `value` with the rule applied for `schema`: optional fields that say "not given" removed, blank
 * text of clearable update fields made `""`. Only what changes is copied; `value` is not modified.
 */
export function readOptionalFields(value: unknown, schema: unknown): OptionalFieldsReading {
  return read(value, schema as SchemaNode | undefined, '', '#')
}
