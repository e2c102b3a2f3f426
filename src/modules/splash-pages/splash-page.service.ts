// Splash page rules: required title, counter default, plan limits, ownership.
import type { SplashPageRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import { parseConfigJson } from '../overlays/config-json.js'
import { buildSplashPageConfig } from './splash-page-config.js'
import type { SplashPageRepository } from './splash-page.repository.js'
import { toSplashPageDetails } from './splash-page.mapper.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import { SPLASH_NAME_RULE, type SplashPageCreateInput, type SplashPageUpdateInput } from './splash-page.schemas.js'
import { SPLASH_TOPIC, type Announcer } from '../../core/invalidation.js'
import { NotFoundError, orNotFound } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { trimmedName } from '../../core/text.js'

export interface SplashPageServiceOptions {
  pages: Bindable<SplashPageRepository>
  journal: ChangeJournal
  /** Told each changed page, so that caches of the visits that show it drop it. */
  invalidation: Announcer
}

export function createSplashPageService({ pages, journal, invalidation }: SplashPageServiceOptions) {
  const announce = (id: number) => invalidation.publish(SPLASH_TOPIC, String(id))

  const getSplashPageOrThrow = orNotFound(pages.findById, 'Splash page')

  return {
    getSplashPageOrThrow,

    listSplashPages(accountId: number, page: PageRequest) {
      return pages.listPage(accountId, page)
    },

    /** The config `input` would store (the rules of create), for previews: nothing is saved. */
    previewSplashConfig(input: SplashPageCreateInput) {
      trimmedName(input.name, SPLASH_NAME_RULE)
      return buildSplashPageConfig(input)
    },

    async createSplashPage(account: AuthenticatedAccount, input: SplashPageCreateInput): Promise<SplashPageRow> {
      const name = trimmedName(input.name, SPLASH_NAME_RULE)
      const config = buildSplashPageConfig(input)
      await enforcePlanLimit(account, 'splash', () => pages.count(account.id))
      return journal.write(account, async (trx) => {
        const page = await pages.in(trx).insert(account.id, { name, config })
        return { result: page, changes: [{ action: 'splash.created', resource: 'splash', resourceId: page.id, fields: givenFields(input), record: toSplashPageDetails(page) }] }
      })
    },

    async updateSplashPage(account: AuthenticatedAccount, id: number, input: SplashPageUpdateInput): Promise<void> {
      const page = await getSplashPageOrThrow(account.id, id)
      const name = input.name === undefined ? page.name : trimmedName(input.name, SPLASH_NAME_RULE)
      const config = buildSplashPageConfig(input, parseConfigJson(page.config))
      await journal.write(account, async (trx) => {
        if (!(await pages.in(trx).update(account.id, id, { name, config }))) throw NotFoundError.of('Splash page')
        const record = toSplashPageDetails({ ...page, name, config: JSON.stringify(config) })
        return { result: undefined, changes: [{ action: 'splash.updated', resource: 'splash', resourceId: id, fields: givenFields(input), record }] }
      })
      announce(id)
    },

    async deleteSplashPage(account: AuthenticatedAccount, id: number): Promise<void> {
      const page = await getSplashPageOrThrow(account.id, id)
      await journal.write(account, async (trx) => {
        if (!(await pages.in(trx).delete(account.id, id))) throw NotFoundError.of('Splash page')
        return { result: undefined, changes: [{ action: 'splash.deleted', resource: 'splash', resourceId: id, fields: [], record: toSplashPageDetails(page) }] }
      })
      announce(id)
    },
  }
}

export type SplashPageService = ReturnType<typeof createSplashPageService>
