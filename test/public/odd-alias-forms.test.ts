// The visitors' forms of a link at an imported alias outside the API's rule (ADR 028): the
// password form posts back to the alias it was shown for, `/` and non-ASCII letters included.
import { describe, expect, it } from 'vitest'
import { hashPassword } from '../../src/core/secrets.js'
import { insertLinkRow } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'
import { visit } from './redirect-test-support.js'

/** An alias as a browser sends it in a path: each segment percent-encoded. */
const aliasPath = (alias: string) => alias.split('/').map(encodeURIComponent).join('/')

describe('forms of imported addresses', () => {
  const { context, owner } = useTestApp()

  it.each(['docs/locked', 'über-locked', 'z'])('opens %s with its password through the form it shows', async (alias) => {
    await insertLinkRow(context.database.db, owner.id, { alias, url: 'https://example.com/secret', password_hash: await hashPassword('open sesame') })
    const page = await visit(context.app, `/${aliasPath(alias)}`)
    expect(page.statusCode).toBe(200)
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1]
    expect(action).toBeDefined()
    const wrong = await visit(context.app, action!, { form: { password: 'nope' } })
    expect(wrong.statusCode).toBe(401)
    const opened = await visit(context.app, action!, { form: { password: 'open sesame' } })
    expect([opened.statusCode, opened.headers.location]).toEqual([302, 'https://example.com/secret'])
  })

  it('serves an alias as long as a source\'s column (255 characters) at its path, longer than a route parameter', async () => {
    const alias = `${'ü'.repeat(100)}-${'k'.repeat(154)}`
    expect(alias).toHaveLength(255)
    await insertLinkRow(context.database.db, owner.id, { alias, url: 'https://example.com/long' })
    for (let visitNumber = 0; visitNumber < 2; visitNumber += 1) expect((await visit(context.app, `/${aliasPath(alias)}`)).headers.location).toBe('https://example.com/long')
    expect((await visit(context.app, `/${'a'.repeat(300)}`)).statusCode).toBe(404)
  })
})
