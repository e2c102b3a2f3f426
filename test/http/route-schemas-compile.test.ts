// Route validators and response serializers are compiled when a route is first asked, not as an
// app starts (http/validator.ts, http/response-serializers.ts): this compiles every one of them,
// as the app's compilers would, so that a schema that cannot be compiled fails here rather than
// as the first request's 500 in production.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { describe, expect, it } from 'vitest'
import { routeSchemasOf } from '../../src/app.js'
import { validatorCompiler } from '../../src/http/validator.js'
import { useTestApp } from '../helpers/test-app.js'

const PARTS = ['body', 'querystring', 'params', 'headers'] as const

describe('every route\'s schemas', () => {
  const { context } = useTestApp()

  it('compile: the request validators and the response serializers', async () => {
    await context.app.ready()
    const routes = routeSchemasOf(context.app)
    expect(routes.length).toBeGreaterThan(200)
    const serializers = SerializerSelector()(context.app.getSchemas() as never, undefined)
    let validators = 0
    let responses = 0
    for (const { method, url, schema } of routes) {
      for (const httpPart of PARTS) {
        const part = schema[httpPart]
        if (!part) continue
        const validate = validatorCompiler({ schema: part as never, httpPart, method: method as never, url })
        // The first call compiles; any answer (a value or errors) means it did.
        expect(() => validate({}), `${method} ${url} ${httpPart}`).not.toThrow()
        validators += 1
      }
      for (const [httpStatus, response] of Object.entries((schema.response ?? {}) as Record<string, unknown>)) {
        expect(() => serializers({ schema: response as never, method: method as never, url, httpStatus }), `${method} ${url} ${httpStatus}`).not.toThrow()
        responses += 1
      }
    }
    expect(validators).toBeGreaterThan(200)
    expect(responses).toBeGreaterThan(400)
  })
})
