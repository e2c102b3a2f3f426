// The statistics service on a bench's database, wired as src/services.ts wires it: the aggregates'
// repository, and each item's ownership and the links' names asked of the item's own repository.
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
