import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/core/errors.js'
import type { RateLimiter } from '../../src/http/rate-limit.js'
import { apiClient, createTestApp, useTestApp, type ApiResponse } from '../helpers/test-app.js'

/** What a leaked stack trace, source path or SQL text would look like in a body. */
const LEAK_PATTERNS = [/\n\s+at /, /\bat .*\(.*:\d+:\d+\)/, /node_modules/, /\.ts:\d+/, /\.js:\d+/, /\bselect\b.*\bfrom\b/i, /SQLITE_/, /Error:/]

function expectNoLeak(response: ApiResponse) {
  for (const pattern of LEAK_PATTERNS) expect(response.body, `${pattern} in ${response.body}`).not.toMatch(pattern)
}

function expectEnvelope(response: ApiResponse, status: number, code: string, field?: string) {
  expect(response.statusCode).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  expect(response.data).toEqual(field === undefined ? { error: 1, message: expect.any(String), code } : { error: 1, message: expect.any(String), code, field })
  expect(response.data.message.length).toBeGreaterThan(0)
  expectNoLeak(response)
}

describe('error envelope and request rows (decisions §1)', () => {
  const { context, owner, api } = useTestApp({ env: { BODY_LIMIT_BYTES: '1024' } })

  // Found by the fuzz test (test/fuzz): the router's own refusals bypassed the error handler, and
  // `/api` with a valid key reached the visitors' `/:alias`.
  it('answers the router\'s refusals and `/api` itself in the envelope, and visitors with pages', async () => {
    expectEnvelope(await api('GET', '/api/channel/%FF'), 400, 'validation_failed')
    expectEnvelope(await api('DELETE', `/api/bio/${'a'.repeat(300)}/delete`), 400, 'validation_failed')
    expectEnvelope(await api('GET', '/api'), 404, 'not_found')
    expectEnvelope(await api('POST', '/api/'), 404, 'not_found')
    const badEncoding = await context.app.inject({ method: 'GET', url: '/r/%FF' })
    expect(badEncoding.statusCode).toBe(400)
    expect(badEncoding.headers['content-type']).toBe('text/html; charset=utf-8')
    const overlong = await context.app.inject({ method: 'GET', url: `/${'a'.repeat(300)}` })
    expect(overlong.statusCode).toBe(404)
    expect(overlong.headers['content-type']).toBe('text/html; charset=utf-8')
  })

  it.each(['{"name": ', '{name: "x"}', "{'name':'x'}", '{"name":"x"}}', 'nope'])('answers malformed JSON %j with 400', async (body) => {
    const response = await api('POST', '/api/campaign/add', body)
    expectEnvelope(response, 400, 'invalid_json')
    expect(response.data.message).toBe('The request body is not valid JSON.')
  })

  it.each(['[]', '[{"name":"in an array"}]', 'null', '"a string"', '42', 'true'])('answers the JSON body %s (not an object) with 400', async (body) => {
    const response = await api('POST', '/api/campaign/add', body)
    expectEnvelope(response, 400, 'validation_failed')
    expect(response.data.message).toBe('The request body must be a JSON object.')
  })

  it('answers a text/plain body with 415', async () => {
    const response = await api('POST', '/api/campaign/add', 'name=x', { 'content-type': 'text/plain' })
    expectEnvelope(response, 415, 'unsupported_media_type')
  })

  it('answers a form-encoded body with 415', async () => {
    const response = await api('POST', '/api/campaign/add', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' })
    expectEnvelope(response, 415, 'unsupported_media_type')
  })

  it('answers a body over BODY_LIMIT_BYTES with 413 and stores nothing', async () => {
    const response = await api('POST', '/api/campaign/add', { name: 'too big', padding: 'x'.repeat(2000) })
    expectEnvelope(response, 413, 'body_too_large')
    const rows = await context.database.db.selectFrom('campaigns').select('id').where('name', '=', 'too big').execute()
    expect(rows).toEqual([])
    // Just under the limit is fine.
    expect((await api('POST', '/api/campaign/add', { name: 'fits', padding: 'x'.repeat(900) })).statusCode).toBe(201)
  })

  it('answers an unknown route with 404 "Endpoint not found."', async () => {
    for (const [method, url] of [['GET', '/api/nothing-here'], ['POST', '/api/campaign/1/frobnicate'], ['PATCH', '/api/campaigns'], ['GET', '/api/no/such/thing']]) {
      const response = await api(method!, url!)
      expectEnvelope(response, 404, 'not_found')
      expect(response.data.message).toBe('Endpoint not found.')
    }
  })

  it('answers an unknown path outside /api with the visitors’ 404 page, not JSON', async () => {
    for (const url of ['/no-such-alias', '/no/such/page']) {
      const response = await api('GET', url)
      expect(response.statusCode).toBe(404)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.body).not.toContain('"error"')
    }
  })

  it('accepts GET and DELETE with Content-Type: application/json and an empty body', async () => {
    const list = await context.app.inject({
      method: 'GET',
      url: '/api/campaigns',
      headers: { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json' },
      payload: '',
    })
    expect(list.statusCode).toBe(200)
    const created = await api('POST', '/api/campaign/add', { name: 'delete with empty body' })
    const deleted = await context.app.inject({
      method: 'DELETE',
      url: `/api/campaign/${created.data.id}/delete`,
      headers: { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json', 'content-length': '0' },
    })
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json()).toEqual({ error: 0, message: 'Campaign has been deleted successfully.' })
  })

  it('treats an empty POST body as {} (bodiless calls send the JSON content type too)', async () => {
    const response = await api('POST', '/api/campaign/add', '')
    expect(response.statusCode).toBe(201)
  })

  it('answers validation failures with a message naming the field and the rule', async () => {
    const response = await api('POST', '/api/campaign/add', { name: 'x' })
    expectEnvelope(response, 400, 'validation_failed', 'name')
    expect(response.data.message).toBe('The field "name" must be 2 to 100 characters.')
    const query = await api('GET', '/api/campaigns?limit=abc')
    expectEnvelope(query, 400, 'validation_failed', 'limit')
    expect(query.data.message).toContain('"limit"')
    // A missing field and a nested one are named as paths of what was sent.
    expectEnvelope(await api('POST', '/api/url/add', {}), 400, 'validation_failed', 'url')
    expectEnvelope(await api('POST', '/api/url/add', { url: 'https://a.example', geotarget: [{ location: 'ZZZ', link: 'https://b.example' }] }), 400, 'validation_failed', 'geotarget.0.location')
    // A refusal about the whole request names no field.
    expectEnvelope(await api('POST', '/api/campaign/add', '[]'), 400, 'validation_failed')
  })

  it('lists every code it answers in the OpenAPI document\'s envelope, described once', async () => {
    const document = (await context.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
      components: { schemas: Record<string, unknown> }
    }
    const envelope = JSON.stringify(document.components.schemas.ErrorEnvelope)
    for (const code of ERROR_CODES) expect(envelope).toContain(`"${code}"`)
    expect(envelope).toContain('"field"')
    expect(JSON.stringify(document.paths['/api/campaign/add']!.post!.responses['400'])).toContain('#/components/schemas/ErrorEnvelope')
  })

  it('answers an unexpected failure with a generic 500, never the error itself', async () => {
    const failing: RateLimiter = {
      consume: async () => {
        throw new Error('boom: select secret from api_keys at /srv/app/src/http/rate-limit.ts:42:7')
      },
    }
    const broken = await createTestApp({ rateLimiter: failing })
    try {
      const response = await apiClient(broken.app, owner.apiKey)('GET', '/api/account')
      expectEnvelope(response, 500, 'internal_error')
      expect(response.data.message).toBe('An unexpected error occurred. Please try again later.')
      expect(response.body).not.toContain('boom')
      expect(response.body).not.toContain('secret')
    } finally {
      await broken.close()
    }
  })

  it('carries a request id on every response', async () => {
    const response = await api('GET', '/api/account', undefined, { 'x-request-id': 'trace-123' })
    expect(response.headers['x-request-id']).toBe('trace-123')
    const error = await api('GET', '/api/nothing-here')
    expect(error.headers['x-request-id']).toMatch(/^[\w.-]+$/)
  })
})
