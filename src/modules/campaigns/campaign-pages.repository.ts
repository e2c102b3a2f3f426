// SQL of a campaign's public addresses: the rotator and the list page. Lookups are by slug or id,
// not by account: visitors have none.
import type { DB } from '../../db/database.js'
import { nowTimestamp } from '../../core/time.js'

/** A campaign's links as the rotator reads them, one row per link (none: one row of nulls). */
export interface RotationRow {
  campaignId: number
  accountId: number
  linkId: number | null
  alias: string | null
  url: string | null
  expiresAt: string | null
  passwordHash: string | null
  domainOrigin: string | null
}

export function createCampaignPagesRepository(db: DB) {
  return {
    /** The campaign with this slug and all its links ordered by id, in one read; [] for an unknown slug. */
    async findRotationRows(slug: string): Promise<RotationRow[]> {
      return db
        .selectFrom('campaigns')
        .leftJoin('links', (join) => join.onRef('links.campaign_id', '=', 'campaigns.id').onRef('links.account_id', '=', 'campaigns.account_id'))
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .select([
          'campaigns.id as campaignId',
          'campaigns.account_id as accountId',
          'links.id as linkId',
          'links.alias',
          'links.url',
          'links.expires_at as expiresAt',
          'links.password_hash as passwordHash',
          'domains.domain as domainOrigin',
        ])
        .where('campaigns.slug', '=', slug)
        .orderBy('links.id')
        .execute()
    },

    async findCampaignWithOwner(id: number) {
      return db
        .selectFrom('campaigns')
        .innerJoin('accounts', 'accounts.id', 'campaigns.account_id')
        .select(['campaigns.id', 'campaigns.account_id', 'campaigns.name', 'campaigns.slug', 'campaigns.is_public', 'accounts.username'])
        .where('campaigns.id', '=', id)
        .executeTakeFirst()
    },

    /** The campaign's links that have not expired, ordered by id, with their branded domain. */
    async listLiveLinks(accountId: number, campaignId: number) {
      const now = nowTimestamp()
      return db
        .selectFrom('links')
        .leftJoin('domains', 'domains.id', 'links.domain_id')
        .select(['links.id', 'links.alias', 'links.url', 'links.title', 'links.password_hash as passwordHash', 'domains.domain as domainOrigin'])
        .where('links.account_id', '=', accountId)
        .where('links.campaign_id', '=', campaignId)
        .where((eb) => eb.or([eb('links.expires_at', 'is', null), eb('links.expires_at', '>', now)]))
        .orderBy('links.id')
        .execute()
    },
  }
}

export type CampaignPagesRepository = ReturnType<typeof createCampaignPagesRepository>
