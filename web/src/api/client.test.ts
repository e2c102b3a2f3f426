// The client reads the error envelope as the server sends it: the message, the code and the field
// (`{"error":1,"message","code","field"?}`); nothing is guessed from the message's words.
import { describe, expect, it } from 'vitest'
import { answerWith, json } from '../test-setup'
import { LinkwellError } from '../../../packages/client/src/index'
import { api, ApiError, ruleOfMessage, unwrap } from './client'

async function refusal(body: unknown, status = 400): Promise<ApiError> {
  answerWith(() => json(status, body))
  const error = await unwrap(api.GET('/api/account')).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('ApiError from the envelope', () => {
  it('takes the field the envelope names, with the code and the message', async () => {
    const error = await refusal({ error: 1, message: 'That alias is taken. Please choose another one.', code: 'duplicate', field: 'custom' })
    expect(error).toMatchObject({ status: 400, code: 'duplicate', field: 'custom', message: 'That alias is taken. Please choose another one.' })
    expect(error.rule).toBe('That alias is taken. Please choose another one.')
  })

  it('names no field when the envelope names none, whatever the message says', async () => {
    for (const message of ['That alias is taken. Please choose another one.', 'The field "custom" must be 3 to 64 characters.', 'Domain not found. Please try again.']) {
      const error = await refusal({ error: 1, message, code: 'validation_failed' })
      expect(error.field, message).toBeUndefined()
      expect(error.rule).toBe(message)
    }
  })

  it('keeps a dotted path as the server wrote it, and says the rule without the field\'s name', async () => {
    const error = await refusal({ error: 1, message: 'The field "geotarget.0.location" must be a two-letter ISO 3166-1 country code.', code: 'validation_failed', field: 'geotarget.0.location' })
    expect(error.field).toBe('geotarget.0.location')
    expect(error.rule).toBe('Must be a two-letter ISO 3166-1 country code.')
  })

  it('ignores a field that is not text, and a body that is no envelope', async () => {
    expect((await refusal({ error: 1, message: 'Odd.', code: 'validation_failed', field: 7 })).field).toBeUndefined()
    const proxy = await refusal('<html>Bad gateway</html>', 502)
    expect(proxy).toMatchObject({ status: 502, code: 'unexpected_response', field: undefined })
    expect(proxy.message).toMatch(/^The server answered 502/)
  })

  it('is the SDK\'s error, worded for people when the server is unreachable or asks to wait', async () => {
    const limited = await refusal({ error: 1, message: 'Rate limit exceeded.', code: 'rate_limited' }, 429)
    expect(limited).toBeInstanceOf(LinkwellError)
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited' })
    expect(limited.message).toMatch(/^Too many requests\. Try again/)
    answerWith(() => {
      throw new TypeError('Failed to fetch')
    })
    const offline = await unwrap(api.GET('/api/account')).catch((caught: unknown) => caught)
    expect(offline).toMatchObject({ status: 0, code: 'network_error', message: 'Could not reach the server. Check your connection and try again.' })
  })

  it('strips only the name of the field the error is about', () => {
    expect(ruleOfMessage('The field "slug" must be 3 to 64 characters.', 'slug')).toBe('Must be 3 to 64 characters.')
    expect(ruleOfMessage('The query parameter "to" must be a day.', 'to')).toBe('Must be a day.')
    expect(ruleOfMessage('The field "name" must be 2 to 100 characters.', 'slug')).toBe('The field "name" must be 2 to 100 characters.')
    expect(ruleOfMessage('The field "slug" must be 3 to 64 characters.', undefined)).toBe('The field "slug" must be 3 to 64 characters.')
  })
})
