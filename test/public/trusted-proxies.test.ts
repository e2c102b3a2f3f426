// Behind a reverse proxy the visitor's address comes from X-Forwarded-For, but only when the
// proxy is one of TRUSTED_PROXIES; anyone else's header is ignored.
import { beforeAll, describe, expect, it } from 'vitest'
import { createLink } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'
import { visit } from './redirect-test-support.js'

const US_ADDRESS = '8.8.8.8'

describe.each([
  ['a trusted proxy', { TRUSTED_PROXIES: '127.0.0.0/8' }, 'https://us.example.com/'],
  ['no trusted proxy', {}, 'https://example.com/default'],
])('X-Forwarded-For from %s', (_label, env, expected) => {
  const { context, owner } = useTestApp({ env })
  let alias: string

  beforeAll(async () => {
    alias = (await createLink(context, owner, { url: 'https://example.com/default', geotarget: [{ location: 'US', link: 'https://us.example.com/' }] })).alias
  })

  it(`targets by ${expected.includes('us.') ? 'the forwarded' : 'the socket'} address`, async () => {
    const response = await visit(context.app, `/${alias}`, { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': US_ADDRESS } })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe(expected)
  })
})
