// One sentence per failed schema check, naming the field and the rule: the request validator's
// errors and the per-type checks services run (QR data) read the same.

/** A failed check as TypeBox (and Fastify) report it. */
export interface ValidationIssue {
  instancePath?: string
  schemaPath?: string
  keyword?: string
  message?: string
  params?: Record<string, unknown>
}

const PART_NAMES: Record<string, string> = {
  body: 'field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
}

/**
 * The `errorMessage` a schema sets for the field an issue points at: the deepest one on the way
 * from the root to the failing node (so a union's own message covers its branches).
 */
function customMessageAt(schema: unknown, schemaPath: string | undefined): string | undefined {
  if (!schema || !schemaPath?.startsWith('#')) return undefined
  let node: unknown = schema
  let message: string | undefined
  for (const segment of schemaPath.slice(1).split('/').filter(Boolean)) {
    if (node === null || typeof node !== 'object') break
    node = (node as Record<string, unknown>)[decodeURIComponent(segment)]
    const custom = (node as { errorMessage?: unknown } | undefined)?.errorMessage
    if (typeof custom === 'string') message = custom
  }
  return message
}

function pathOf(issue: ValidationIssue): string {
  return (issue.instancePath ?? '').split('/').filter(Boolean).join('.')
}

function missingOf(issue: ValidationIssue): string | undefined {
  if (issue.keyword !== 'required') return undefined
  return (issue.params?.requiredProperties as string[] | undefined)?.[0] ?? (issue.params?.missingProperty as string | undefined)
}

/**
 * The field an issue is about, as a dotted path of what the client sent (`geotarget.0.location`,
 * or the missing `url`); undefined when the issue is about the whole body.
 */
export function fieldOfIssue(issue: ValidationIssue): string | undefined {
  const path = pathOf(issue)
  const missing = missingOf(issue)
  if (missing) return path ? `${path}.${missing}` : missing
  return path || undefined
}

/** Turns the first validation issue of a request part into one sentence that names the field and the rule. */
export function describeValidationIssue(part: string, issue: ValidationIssue, schema?: unknown): string {
  const path = pathOf(issue)
  const missing = missingOf(issue)
  const partName = PART_NAMES[part] ?? part
  if (missing) {
    return `The ${partName} "${path ? `${path}.` : ''}${missing}" is required.`
  }
  if (!path) {
    return part === 'body' ? 'The request body must be a JSON object.' : `Invalid ${partName}: ${issue.message ?? 'invalid value'}.`
  }
  const rule = customMessageAt(schema, issue.schemaPath) ?? issue.message ?? 'is invalid'
  return `The ${partName} "${path}" ${rule}.`.replace(/\.\.$/, '.')
}
