// A valid value for a JSON schema of the OpenAPI document, so that a fuzzed request differs from
// a request the server accepts in one field only. Strings are picked from candidates by field
// name and checked against the schema's pattern and lengths; ids point at the fixtures.

export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  [key: string]: unknown
}

export interface ValueContext {
  /** A number no other request used, for names that must be unique. */
  unique: number
  fixtures: Record<string, number>
  /** Objects get their required properties only (optional ones are what the fuzzer adds). */
  requiredOnly: boolean
}

const ID_FIELDS: Record<string, string> = { campaign: 'campaign', channel: 'channel', planid: 'plan', pixels: 'pixel' }

function stringCandidates(field: string, context: ValueContext): string[] {
  const n = `${context.unique}x${process.pid}`
  const byName: Record<string, string[]> = {
    email: [`fuzz${n}@example.com`],
    username: [`fuzz${n}`],
    domain: [`https://fuzz${n}.example.com`],
    alias: [`fuzzalias${n}`],
    custom: [`fuzzcustom${n}`],
    slug: [`fuzz-slug-${n}`],
    tag: ['GTM-FUZZ123'],
    password: ['fuzz password 1'],
    data: ['https://example.com/fuzz'],
    // The identity provider api-fuzz.test.ts makes (single sign-on).
    provider: ['fuzz'],
    // Conversions (issue 39): an ISO 4217 code, the browser origins a workspace's tracking accepts.
    currency: ['EUR'],
    trackingorigins: ['https://shop.example.com'],
    stripesigningsecret: ['whsec_fuzzsigningsecret'],
    timezone: ['Europe/Berlin'],
  }
  return [
    ...(byName[field] ?? []),
    `Fuzz ${field} ${n}`,
    'https://example.com/fuzz',
    '#1e90ff',
    'rgb(10,20,30)',
    '2031-01-01 00:00:00',
    '2031-01-01',
    'DE',
    'en',
    'direct',
    `fuzz_${n}`,
    'GTM-FUZZ123',
    '12345',
    'x',
  ]
}

function fits(schema: JsonSchema, text: string): boolean {
  if (schema.pattern && !new RegExp(schema.pattern, 'u').test(text)) return false
  if (schema.minLength !== undefined && text.length < schema.minLength) return false
  if (schema.maxLength !== undefined && text.length > schema.maxLength) return false
  return true
}

/** A value `schema` accepts; `field` is the property name it sits under. */
export function baseValueOf(schema: JsonSchema, context: ValueContext, field = ''): unknown {
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  if (schema.anyOf) {
    const branch = schema.anyOf.find((candidate) => candidate.type !== 'null') ?? schema.anyOf[0]!
    return baseValueOf(branch, context, field)
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'object': {
      const names = Object.keys(schema.properties ?? {}).filter((name) => !context.requiredOnly || schema.required?.includes(name))
      return Object.fromEntries(names.map((name) => [name, baseValueOf(schema.properties![name]!, context, name)]))
    }
    case 'array': {
      const item = ID_FIELDS[field] ? context.fixtures[ID_FIELDS[field]!] : baseValueOf(schema.items ?? {}, { ...context, requiredOnly: false }, field)
      return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () => item)
    }
    case 'integer':
    case 'number': {
      const fixture = ID_FIELDS[field] ? context.fixtures[ID_FIELDS[field]!] : undefined
      return fixture ?? schema.minimum ?? 1
    }
    case 'boolean':
      return true
    case 'string':
      return stringCandidates(field, context).find((candidate) => fits(schema, candidate)) ?? 'fuzz'
    default:
      return 'fuzz'
  }
}
