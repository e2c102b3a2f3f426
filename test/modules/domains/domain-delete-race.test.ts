// A link added to a domain between the "still has links" check and the delete: the foreign key
// refuses the delete, and the client gets the same 400 as when the check catches it.
import { ANNOUNCE_NOTHING } from '../../../src/core/invalidation.js'
import { describe, expect, it } from 'vitest'
import { createDomainRepository } from '../../../src/modules/domains/domain.repository.js'
import { createDomainService } from '../../../src/modules/domains/domain.service.js'
import { actingAs, createDomain, createLink } from '../../helpers/factories.js'
import { bindable } from '../../../src/db/transactions.js'
import { useTestApp } from '../../helpers/test-app.js'
import { AppError } from '../../../src/core/errors.js'

describe('deleting a domain that gained a link meanwhile', () => {
  const { context, owner } = useTestApp()

  it('answers 400 domain_has_links, not a server error', async () => {
    const db = context.database.db
    const domain = await createDomain(context, owner)
    await createLink(context, owner, { domain: domain.id })
    // The check saw no links (the race): only the foreign key stands in the way.
    const service = createDomainService({
      domains: bindable(createDomainRepository, db),
      publicUrl: 'https://lw.test',
      server: { ips: [], cname: undefined },
      resolveHost: async () => ({ addresses: [], cnames: [] }) as never,
      links: { hasLinks: async () => false },
      invalidation: ANNOUNCE_NOTHING,
      journal: context.services.journal,
    })
    const refused = await service.deleteDomain(await actingAs(context, owner), domain.id).then(() => undefined, (error: unknown) => error)
    expect(refused).toBeInstanceOf(AppError)
    expect(refused).toMatchObject({ code: 'domain_has_links' })
    expect(await db.selectFrom('domains').select('id').where('id', '=', domain.id).executeTakeFirst()).toEqual({ id: domain.id })
  })
})
