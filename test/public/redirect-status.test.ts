// REDIRECT_STATUS chooses between 302 (default) and 301 for a short link's own redirect.
import { describe, expect, it } from 'vitest'
import { createLink } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'
import { visit } from './redirect-test-support.js'

describe.each([
  ['by default', {}, 302],
  ['with REDIRECT_STATUS=301', { REDIRECT_STATUS: '301' }, 301],
])('a short link’s redirect %s', (_label, env, status) => {
  const { context, owner } = useTestApp({ env })

  it(`answers ${status}`, async () => {
    const { alias } = await createLink(context, owner, { url: 'https://example.com/permanent' })
    const response = await visit(context.app, `/${alias}`)
    expect(response.statusCode).toBe(status)
    expect(response.headers.location).toBe('https://example.com/permanent')
  })
})
