// Migration 005 counts the clicks recorded before it (by the first version, which kept raw rows
// and the item counters only) into the new aggregates, exactly as the click writer would have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateToLatest } from '../../src/db/database.js'
import { expectAggregatesMatchRaw } from '../analytics/click-test-support.js'
import { insertLinkRow } from '../helpers/factories.js'
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js'

const CREATED = '2026-01-01 00:00:00'

// Rows as the schema of migration 004 holds them: today's services write today's schema, so the
// items of this older database are written directly.
async function insertItemsAt004(db: TestDatabase['db']) {
  const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
  const account = await db.insertInto('accounts').values({ email: 'before@example.com', username: 'before', password_hash: null, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: CREATED }).returning('id').executeTakeFirstOrThrow()
  const link = await insertLinkRow(db, account.id, { alias: 'old-link', url: 'https://example.com' })
  const qr = await db.insertInto('qr_codes').values({ account_id: account.id, alias: 'old-qr', name: 'old-qr', type: 'link', data: '{"url":"https://example.com"}', background: 'rgb(255,255,255)', foreground: 'rgb(0,0,0)', logo: null, logo_source: null, scans: 0, created_at: CREATED, updated_at: CREATED }).returning('id').executeTakeFirstOrThrow()
  const campaign = await db.insertInto('campaigns').values({ account_id: account.id, name: 'old-campaign', slug: 'old-campaign', is_public: 1, created_at: CREATED }).returning('id').executeTakeFirstOrThrow()
  return { accountId: account.id, linkId: link.id, qrId: qr.id, campaignId: campaign.id }
}

describe('migration 005: clicks recorded before the aggregates', () => {
  let database: TestDatabase

  beforeAll(async () => {
    database = await createTestDatabase({ migrateTo: '004-case-insensitive-aliases' })
  })
  afterAll(() => database.destroy())

  it('fills every counter of every dimension from the raw clicks, and the campaign views', async () => {
    const db = database.db
    const { accountId, linkId, qrId, campaignId } = await insertItemsAt004(db)
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
