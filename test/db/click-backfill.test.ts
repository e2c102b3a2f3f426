// Migration 005 counts the clicks recorded before it (by the first version, which kept raw rows
// and the item counters only) into the new aggregates, exactly as the click writer would have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../../src/db/database.js'
import { expectAggregatesMatchRaw, insertAccount, insertCampaign, insertLink, insertQrCode } from '../analytics/click-test-support.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'

describe('migration 005: clicks recorded before the aggregates', () => {
  let database: TestDatabase

  beforeAll(async () => {
    database = await createTestDatabase({ migrateTo: '004-case-insensitive-aliases' })
  })
  afterAll(() => database.destroy())

  it('fills every counter of every dimension from the raw clicks, and the campaign views', async () => {
    const db = database.db
    const accountId = await insertAccount(db, 'before')
    const linkId = await insertLink(db, accountId, 'old-link')
    const qrId = await insertQrCode(db, accountId, 'old-qr')
    const campaignId = await insertCampaign(db, accountId, 'old-campaign')
    const referrers = [null, 'l.facebook.com', 'facebook.com', 't.co', 'x.com', 'mobile.twitter.com', 'instagram.com', 'lnkd.in', 'www2.linkedin.com', 'news.example', 'notfacebook.com']
    const items: Array<['link' | 'qr' | 'campaign', number]> = [['link', linkId], ['qr', qrId], ['campaign', campaignId]]
    const rows = Array.from({ length: 90 }, (_, index) => {
      const [itemType, itemId] = items[index % items.length]!
      return {
        account_id: accountId, item_type: itemType, item_id: itemId,
        created_at: `2026-10-${String(1 + (index % 5)).padStart(2, '0')} 12:00:00`,
        referrer_host: referrers[index % referrers.length]!, language: index % 4 === 0 ? null : 'en',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', visitor_hash: `v${index % 7}`,
        country: null, browser: null, os: null, device: null, is_unique: 0,
      }
    })
    await db.insertInto('clicks').values(rows).execute()
    // The first version kept these two counters in step with its raw rows.
    await db.updateTable('links').set({ clicks: 30 }).where('id', '=', linkId).execute()
    await db.updateTable('qr_codes').set({ scans: 30 }).where('id', '=', qrId).execute()

    await migrateToLatest(database)

    await expectAggregatesMatchRaw(db)
    const social = await db.selectFrom('click_totals').select(['item_type', 'value', 'clicks']).where('dimension', '=', 'social').orderBy('item_type').orderBy('value').execute()
    // facebook: l.facebook.com and facebook.com, not notfacebook.com; twitter: t.co, x.com, mobile.twitter.com.
    expect(social.reduce((sum, row) => sum + row.clicks, 0)).toBe(rows.filter((row) => ['l.facebook.com', 'facebook.com', 't.co', 'x.com', 'mobile.twitter.com', 'instagram.com', 'lnkd.in', 'www2.linkedin.com'].includes(row.referrer_host ?? '')).length)
    const campaign = await db.selectFrom('campaigns').select('views').where('id', '=', campaignId).executeTakeFirstOrThrow()
    expect(campaign.views).toBe(30)
    // The first version's user agents are gone; nothing else about the clicks changed.
    expect(await db.selectFrom('clicks').select('id').where('user_agent', 'is not', null).execute()).toEqual([])
    expect(await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()).toEqual({ count: 90 })
  })
})
