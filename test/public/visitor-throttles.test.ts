// Guessing a link's password and flooding a contact form (issue 13): after a few attempts a 429
// page with Retry-After, per client address and per link, while every other link is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLink, insertLinkRow, insertOverlayRow } from '../helpers/factories.js'
import { expectPage } from '../helpers/pages.js'
import { createAccount, createTestApp, type TestAccount, type TestContext } from '../helpers/test-app.js'
import { visit } from './redirect-test-support.js'

describe('visitor throttles', () => {
  let context: TestContext
  let owner: TestAccount
  const db = () => context.database.db

  beforeAll(async () => {
    context = await createTestApp()
    owner = await createAccount(context)
  })
  afterAll(() => context.close())

  it('stops a guessing loop on one link after five wrong passwords, and serves every other link throughout', async () => {
    const locked = await createLink(context, owner, { password: 'right one', url: 'https://example.com/locked' })
    const open = await createLink(context, owner, { url: 'https://example.com/open' })
    const guesser = '10.1.0.1'
    const statuses: number[] = []
    for (let guess = 0; guess < 30; guess += 1) {
      const response = await visit(context.app, `/${locked.alias}`, { form: { password: `guess ${guess}` }, remoteAddress: guesser })
      statuses.push(response.statusCode)
      if (response.statusCode === 429) {
        expectPage(response, 429, 'Too many attempts', 'Please wait')
        expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      }
      // Other links keep being served while the loop runs.
      const redirect = await visit(context.app, `/${open.alias}`, { remoteAddress: '10.1.0.9' })
      expect(redirect.statusCode).toBe(302)
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true)
    // The first refusal says how long: the first block is a minute.
    const again = await visit(context.app, `/${locked.alias}`, { form: { password: 'right one' }, remoteAddress: guesser })
    expect(again.statusCode).toBe(429)
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(60)
    // Someone else with the password still gets through: one address cannot lock the link.
    const owner2 = await visit(context.app, `/${locked.alias}`, { form: { password: 'right one' }, remoteAddress: '10.1.0.2' })
    expect(owner2.statusCode).toBe(302)
    expect(owner2.headers.location).toBe('https://example.com/locked')
  })

  it('gives a visitor who finally types the right password their attempts back', async () => {
    const link = await createLink(context, owner, { password: 'typo-prone' })
    const visitor = '10.1.1.1'
    for (let round = 0; round < 3; round += 1) {
      for (const password of ['typo-prone!', 'typo-prone']) {
        await visit(context.app, `/${link.alias}`, { form: { password }, remoteAddress: visitor })
      }
    }
    // Three wrong and three right: two attempts are left before a block.
    expect((await visit(context.app, `/${link.alias}`, { form: { password: 'x' }, remoteAddress: visitor })).statusCode).toBe(401)
    expect((await visit(context.app, `/${link.alias}`, { form: { password: 'typo-prone' }, remoteAddress: visitor })).statusCode).toBe(302)
  })

  it('takes three contact messages from one address, then answers 429 and stores no more', async () => {
    const overlayId = await insertOverlayRow(db(), owner.id, 'contact', { title: 'Talk to us', email: 'owner@example.com' })
    const link = await insertLinkRow(db(), owner.id, { type: 'overlay', overlay_id: overlayId })
    const statuses: number[] = []
    for (let message = 0; message < 6; message += 1) {
      const response = await visit(context.app, `/${link.alias}/contact`, { form: { email: 'spam@example.com', message: `buy ${message}` }, remoteAddress: '10.2.0.1' })
      statuses.push(response.statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429])
    const stored = await db().selectFrom('contacts').select('id').where('link_id', '=', link.id).execute()
    expect(stored).toHaveLength(3)
    // Another visitor may still write.
    const other = await visit(context.app, `/${link.alias}/contact`, { form: { email: 'ada@example.com' }, remoteAddress: '10.2.0.2' })
    expect(other.statusCode).toBe(200)
  })
})
