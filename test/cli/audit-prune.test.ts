// `linkwell audit prune` as a child process: it deletes audit entries older than AUDIT_RETENTION_DAYS
// (or --days), every account's, keeps the rest, and refuses a bad --days without deleting anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, createCampaign, servicesFor, type WithServices } from '../helpers/factories.js'
import { createSharedDatabase, runCli, type SharedDatabase } from './cli-runner.js'
import { expectFailure } from './click-commands-support.js'
import { nowTimestamp } from '../../src/core/time.js'

const DAY_MS = 86_400_000

describe('linkwell audit prune', () => {
  let shared: SharedDatabase
  let made: WithServices

  beforeAll(async () => {
    shared = await createSharedDatabase()
    made = servicesFor(shared.handle)
  })
  afterAll(() => shared.close())

  const ages = async () => (await shared.handle.db.selectFrom('audit_log').select(['action', 'created_at']).orderBy('id').execute()).map((row) => row.action)

  it('refuses a bad --days and deletes nothing; then keeps AUDIT_RETENTION_DAYS, or --days', async () => {
    const owner = await createAccount(made)
    const other = await createAccount(made)
    await createCampaign(made, owner, { name: 'Spring' })
    await createCampaign(made, other, { name: 'Autumn' })
    const db = shared.handle.db
    const at = (days: number) => nowTimestamp(new Date(Date.now() - days * DAY_MS))
    await db.updateTable('audit_log').set({ created_at: at(400) }).where('action', '=', 'account.created').where('account_id', '=', owner.id).execute()
    await db.updateTable('audit_log').set({ created_at: at(100) }).where('action', '=', 'campaign.created').where('account_id', '=', other.id).execute()
    const before = await ages()

    const [zero, word] = await Promise.all([runCli(shared.url, ['audit', 'prune', '--days', '0']), runCli(shared.url, ['audit', 'prune', '--days', 'many'])])
    expectFailure(zero, 2, '--days must be a whole number', 'audit prune --days 0')
    expectFailure(word, 2, '--days must be a whole number', 'audit prune --days many')
    expect(await ages()).toEqual(before)

    // The default retention (365 days) takes only the 400-day-old entry.
    const byDefault = await runCli(shared.url, ['audit', 'prune'])
    expect(byDefault.code, byDefault.stderr).toBe(0)
    expect(byDefault.json).toMatchObject({ deleted: 1, days: 365 })
    const byVariable = await runCli(shared.url, ['audit', 'prune'], { AUDIT_RETENTION_DAYS: '90' })
    expect(byVariable.json).toMatchObject({ deleted: 1, days: 90 })
    expect(await ages()).toEqual(['account.created', 'campaign.created'])
    const byOption = await runCli(shared.url, ['audit', 'prune', '--days', '1'], { AUDIT_RETENTION_DAYS: '90' })
    expect(byOption.json).toMatchObject({ deleted: 0, days: 1 })
    expect(await ages()).toEqual(['account.created', 'campaign.created'])
  })
})
