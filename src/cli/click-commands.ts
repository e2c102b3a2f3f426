// `linkwell clicks prune` (retention of raw clicks) and `linkwell dev seed-clicks` (synthetic clicks
// for measuring statistics at scale).
import { pruneRawClicks, pruneVisitorDays } from '../analytics/click-retention.js'
import { seedClicks, seedWorkspaceClicks } from '../analytics/click-seed.js'
import { CliFailure, MAX_DAYS, pruneCommand, text, UsageError, wholeNumber, type Command } from './command.js'
import { daysBefore, nowTimestamp, toStoredTimestamp } from '../core/time.js'
import type { ClickItemType } from '../analytics/click-items.js'

const ITEM_OPTIONS: Record<string, ClickItemType> = { link: 'link', qr: 'qr', campaign: 'campaign', bio: 'bio' }
const ITEM_NOUNS: Record<ClickItemType, string> = { link: 'link', qr: 'QR code', campaign: 'campaign', bio: 'bio page' }

export const CLICK_COMMANDS: Command[] = [
  pruneCommand({
    name: 'clicks prune',
    summary: 'delete raw clicks older than N days (default CLICK_RETENTION_DAYS); statistics (aggregates) are kept whole',
    retentionOf: (config) => config.clickRetentionDays,
    async prune(days, { db }) {
      if (days === null) throw new UsageError('CLICK_RETENTION_DAYS is not set and --days was not given: raw clicks are kept forever')
      const now = nowTimestamp()
      // A click recorded at this instant N days ago is the oldest one kept.
      const before = `${daysBefore(now.slice(0, 10), days)}${now.slice(10)}`
      const deleted = await pruneRawClicks(db, before)
      const visitorRows = await pruneVisitorDays(db, now.slice(0, 10))
      return { deleted, before, days, visitorRows }
    },
  }),
  {
    name: 'dev seed-clicks',
    usage: '(--link ID | --qr ID | --campaign ID | --bio ID | --workspace ACCOUNT_ID [--links L]) --count N [--days D] [--last-day YYYY-MM-DD]',
    summary: "write N synthetic clicks of one item, or of the account's first L links (default 10,000; missing ones are created as seed-ACCOUNT-N), over D days (default 90), spread like real traffic (Zipf over 200 countries and 500 referrers, 30 browsers, 3 devices; Zipf across links); they count like real ones: for test databases only",
    options: { link: { type: 'string' }, qr: { type: 'string' }, campaign: { type: 'string' }, bio: { type: 'string' }, workspace: { type: 'string' }, links: { type: 'string' }, count: { type: 'string' }, days: { type: 'string' }, 'last-day': { type: 'string' } },
    required: ['count'],
    async run(values, { db, progress }) {
      const items = [...Object.keys(ITEM_OPTIONS), 'workspace'].filter((option) => text(values, option) !== undefined)
      if (items.length !== 1) throw new UsageError('give exactly one of --link, --qr, --campaign, --bio or --workspace')
      const option = items[0]!
      if (option !== 'workspace' && text(values, 'links') !== undefined) throw new UsageError('--links goes with --workspace only')
      const lastDay = text(values, 'last-day') ?? nowTimestamp().slice(0, 10)
      if (!/^\d{4}-\d{2}-\d{2}$/.test(lastDay) || !toStoredTimestamp(lastDay)) throw new UsageError(`--last-day must be a date YYYY-MM-DD, got "${lastDay}"`)
      const started = Date.now()
      const spread = {
        count: wholeNumber(text(values, 'count')!, 'count', 1, 1_000_000_000),
        days: wholeNumber(text(values, 'days') ?? '90', 'days', 1, MAX_DAYS),
        lastDay,
        onProgress: (written: number) => {
          if (written % 1_000_000 === 0) progress(`seed-clicks: ${written} clicks written`)
        },
      }
      const id = wholeNumber(text(values, option)!, option, 1, 2_147_483_647)
      if (option === 'workspace') {
        const result = await seedWorkspaceClicks(db, { ...spread, accountId: id, links: wholeNumber(text(values, 'links') ?? '10000', 'links', 1, 1_000_000) })
        if (!result) throw new CliFailure(`No account with the id ${id}.`)
        return { ...result, seconds: Math.round((Date.now() - started) / 100) / 10 }
      }
      const itemType = ITEM_OPTIONS[option]!
      const itemId = id
      const result = await seedClicks(db, { ...spread, itemType, itemId })
      if (!result) throw new CliFailure(`No ${ITEM_NOUNS[itemType]} with the id ${itemId}.`)
      return { ...result, seconds: Math.round((Date.now() - started) / 100) / 10 }
    },
  },
]
