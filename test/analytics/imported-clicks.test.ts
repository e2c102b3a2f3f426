// Imported clicks (issue 21, ADR 021): the database counts a page of them from the raw rows
// (`writeImportedClicks`), and those counters must be exactly the ones the click writer adds for
// the same clicks in JavaScript (`writeEnrichedClicks`): compared here link against link, on
// every dimension, day and total, and the links' own counters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeEnrichedClicks, writeImportedClicks, type EnrichedClick } from '../../src/analytics/click-writer.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'
import { createAccount, createLink, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'
import { createRandom, pick } from './click-test-support.js'

describe('imported clicks counted by the database', () => {
  let database: TestDatabase
  let made: WithServices
  let owner: TestAccount

  beforeAll(async () => {
    database = await createTestDatabase()
    made = servicesFor(database)
    owner = await createAccount(made)
  })
  afterAll(() => database.destroy())

  /** Every counter of a link: its days, its totals and its own clicks. */
  async function countersOf(linkId: number) {
    const db = database.db
    const days = await db.selectFrom('click_days').select(['day', 'dimension', 'value', 'clicks']).where('item_type', '=', 'link').where('item_id', '=', linkId)
      .orderBy('day').orderBy('dimension').orderBy('value').execute()
    const totals = await db.selectFrom('click_totals').select(['dimension', 'value', 'clicks']).where('item_type', '=', 'link').where('item_id', '=', linkId)
      .orderBy('dimension').orderBy('value').execute()
    const link = await db.selectFrom('links').select(['clicks', 'unique_clicks']).where('id', '=', linkId).executeTakeFirstOrThrow()
    return {
      days: days.map((row) => `${row.day} ${row.dimension} ${row.value}: ${Number(row.clicks)}`),
      totals: totals.map((row) => `${row.dimension} ${row.value}: ${Number(row.clicks)}`),
      link: { clicks: Number(link.clicks), unique: Number(link.unique_clicks) },
    }
  }

  it('adds the same counters as the click writer, page after page', async () => {
    const byWriter = await createLink(made, owner)
    const imported = await createLink(made, owner)
    const other = await createLink(made, owner)
    const agents = [{ browser: 'Chrome', os: 'Windows', device: 'desktop' }, { browser: 'Mobile Safari', os: 'iOS', device: 'mobile' }, { browser: '', os: '', device: '' }]
    const clicksOf = (itemId: number, seed: number): EnrichedClick[] => {
      const again = createRandom(seed)
      return Array.from({ length: 400 }, () => ({
        accountId: owner.id,
        itemType: 'link' as const,
        itemId,
        createdAt: `2024-0${1 + Math.floor(again() * 3)}-1${Math.floor(again() * 9)} 1${Math.floor(again() * 9)}:00:00`,
        referrerHost: pick(again, [null, 'google.com', 'l.facebook.com', 't.co', 'x.com', 'news.ycombinator.com', 'lnkd.in', 'notfacebook.com']),
        language: pick(again, [null, 'en', 'de']),
        visitorHash: 'seed',
        country: pick(again, [null, 'US', 'DE', 'FR']),
        agent: pick(again, agents),
        isUnique: again() < 0.3,
      }))
    }
    const clicks = clicksOf(byWriter.id, 7)
    await database.db.transaction().execute((trx) => writeEnrichedClicks(trx, clicks))
    const asImported = clicks.map((click) => ({ ...click, itemId: imported.id }))
    // Two pages, with another import's page between them: each counts only its own rows.
    await database.db.transaction().execute((trx) => writeImportedClicks(trx, asImported.slice(0, 150), 'imported:1'))
    await database.db.transaction().execute((trx) => writeImportedClicks(trx, clicksOf(other.id, 8), 'imported:2'))
    await database.db.transaction().execute((trx) => writeImportedClicks(trx, asImported.slice(150), 'imported:1'))

    const expected = await countersOf(byWriter.id)
    expect(expected.totals).toContain('social facebook: ' + clicks.filter((click) => click.referrerHost === 'l.facebook.com').length)
    expect(expected.link.clicks).toBe(400)
    expect(await countersOf(imported.id)).toEqual(expected)
    expect((await countersOf(other.id)).link.clicks).toBe(400)
  })

  it('writes nothing for an empty page', async () => {
    const link = await createLink(made, owner)
    await database.db.transaction().execute((trx) => writeImportedClicks(trx, [], 'imported:3'))
    expect(await countersOf(link.id)).toEqual({ days: [], totals: [], link: { clicks: 0, unique: 0 } })
  })
})
