// The statistics service on a bench's database, wired as src/services.ts wires it: the aggregates'
// repository, and each item's ownership and the links' names asked of the item's own repository;
// and the accounts and links the analytics benches (DuckDB, ClickHouse) seed and ask about.
import { seedLinks } from '../src/analytics/click-seed.js'
import { nowTimestamp } from '../src/core/time.js'
import type { DB } from '../src/db/database.js'
import { createBioPageRepository } from '../src/modules/bio-pages/bio-page.repository.js'
import { createCampaignRepository } from '../src/modules/campaigns/campaign.repository.js'
import { createLinkRepository } from '../src/modules/links/link.repository.js'
import { createQrCodeRepository } from '../src/modules/qr-codes/qr-code.repository.js'
import type { StatisticsEngine } from '../src/modules/statistics/click-query.js'
import { createStatisticsRepository } from '../src/modules/statistics/statistics.repository.js'
import { createStatisticsService } from '../src/modules/statistics/statistics.service.js'
import { createConversionFiguresRepository } from '../src/modules/statistics/conversion-figures.repository.js'

export function statisticsServiceOn(db: DB, options: { now?: () => Date; engine?: StatisticsEngine } = {}) {
  const links = createLinkRepository(db)
  const owners = { link: links, qr: createQrCodeRepository(db), campaign: createCampaignRepository(db), bio: createBioPageRepository(db) }
  return createStatisticsService({ statistics: createStatisticsRepository(db), items: { owners, links }, conversions: createConversionFiguresRepository(db), ...options })
}

/** The accounts and links the analytics benches (DuckDB, ClickHouse) ask about. */
export interface Fixture {
  linkAccount: number
  largeLink: number
  workspace: number
  /** The workspace's links' ids, consecutive. */
  firstLink: number
}

/** The main database: two accounts, the large link and the workspace's `links` links (consecutive ids); the ClickHouse scale bench's too. */
export async function createFixture(db: DB, links: number): Promise<Fixture> {
  const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow()
  const account = async (name: string) => (await db.insertInto('accounts').values({ email: `${name}@example.com`, username: name, password_hash: null, avatar: null, plan_id: plan.id, plan_expires: null, is_admin: 0, is_suspended: 0, created_at: nowTimestamp() }).returning('id').executeTakeFirstOrThrow()).id
  const linkAccount = await account('one-link')
  const workspace = await account('workspace')
  const [largeLink] = await seedLinks(db, linkAccount, 1)
  const ids = await seedLinks(db, workspace, links)
  if (ids.some((id, index) => id !== ids[0]! + index)) throw new Error('the workspace links were not given consecutive ids')
  return { linkAccount, largeLink: largeLink!, workspace, firstLink: ids[0]! }
}
