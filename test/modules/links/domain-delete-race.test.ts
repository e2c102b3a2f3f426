// A link added to a domain between the "still has links" check and the delete: the foreign key
// refuses the delete, and the client gets the same 400 as when the check catches it.
import { ANNOUNCE_NOTHING } from '../../../src/core/invalidation.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDomainRepository } from '../../../src/modules/domains/domain.repository.js'
import { createDomainService } from '../../../src/modules/domains/domain.service.js'
import { createAccount, createTestApp, type TestContext } from '../../helpers/test-app.js'
import { nowTimestamp } from '../../../src/core/time.js'
import { AppError } from '../../../src/core/errors.js'

describe('deleting a domain that gained a link meanwhile', () => {
  let context: TestContext

  beforeAll(async () => {
    context = await createTestApp()
  })
  afterAll(() => context.close())

  it('answers 400 domain_has_links, not a server error', async () => {
    const db = context.database.db
    const account = await createAccount(context)
    const now = nowTimestamp()
    const domain = await db.insertInto('domains').values({ account_id: account.id, domain: 'https://race.example.test', hostname: 'race.example.test', redirect_root: null, redirect_404: null, created_at: now }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('links').values({ account_id: account.id, domain_id: domain.id, host: 'race.example.test', alias: 'raced', url: 'https://example.com', type: 'direct', targeting: '{}', clicks: 0, unique_clicks: 0, created_at: now, updated_at: now }).execute()
    // The check saw no links (the race): only the foreign key stands in the way.
    const service = createDomainService(createDomainRepository(db), {
      publicUrl: 'https://lw.test',
      server: { ips: [], cname: undefined },
      resolveHost: async () => ({ addresses: [], cnames: [] }) as never,
      links: { hasLinks: async () => false },
      invalidation: ANNOUNCE_NOTHING,
    })
    const refused = await service.deleteDomain(account.id, domain.id).then(() => undefined, (error: unknown) => error)
    expect(refused).toBeInstanceOf(AppError)
    expect(refused).toMatchObject({ code: 'domain_has_links' })
    expect(await db.selectFrom('domains').select('id').where('id', '=', domain.id).executeTakeFirst()).toBeDefined()
  })
})

describe('aliases differing only in letter case', () => {
  let context: TestContext

  beforeAll(async () => {
    context = await createTestApp()
  })
  afterAll(() => context.close())

  it('cannot both exist on one host, even when written behind the services’ back', async () => {
    const db = context.database.db
    const account = await createAccount(context)
    const now = nowTimestamp()
    const link = { account_id: account.id, domain_id: null, host: '', url: 'https://example.com', type: 'direct', targeting: '{}', clicks: 0, unique_clicks: 0, created_at: now, updated_at: now }
    await db.insertInto('links').values({ ...link, alias: 'CaseRace' }).execute()
    await expect(db.insertInto('links').values({ ...link, alias: 'caserace' }).execute()).rejects.toThrow()
  })
})
