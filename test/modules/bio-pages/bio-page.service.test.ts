// Bio page rules that the HTTP surface cannot show: cache invalidation and alias generation.
import { bindable } from '../../../src/db/transactions.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL_ACCESS } from '../../../src/modules/access/api-key-scopes.js'
import type { AuthenticatedAccount } from '../../../src/modules/access/authenticated-account.js'
import { createBioPageRepository } from '../../../src/modules/bio-pages/bio-page.repository.js'
import { createBioPageService } from '../../../src/modules/bio-pages/bio-page.service.js'
import { aliasKey } from '../../../src/modules/aliases/alias-namespace.js'
import { createAliasRepository } from '../../../src/modules/aliases/alias.repository.js'
import { createAliasService } from '../../../src/modules/aliases/alias.service.js'
import { createAccount, createTestApp, type TestContext } from '../../helpers/test-app.js'
import { insertLinkRow, uniqueAlias } from '../../helpers/factories.js'
import { ALIAS_TOPIC, createLocalInvalidationBus } from '../../../src/core/invalidation.js'

describe('bio page service', () => {
  let context: TestContext
  let account: AuthenticatedAccount

  beforeAll(async () => {
    context = await createTestApp()
    const created = await createAccount(context)
    account = { id: created.id, username: created.username, email: created.email, isAdmin: false, isSuspended: false, apirate: null, limits: {}, keyId: 0, keyExpires: null, keyScope: FULL_ACCESS, personId: null, role: 'owner', via: 'api', address: null }
  })
  afterAll(() => context.close())

  /** A service whose bus remembers every published key, and whose aliases come from `drawn` when given. */
  function serviceWithRecorder(drawn?: string[]) {
    const bus = createLocalInvalidationBus(1_000)
    const published: string[] = []
    bus.subscribe((topic, key) => published.push(`${topic}:${key}`))
    const queue = drawn ? [...drawn] : undefined
    const aliases = createAliasService({
      namespace: createAliasRepository(context.database.db),
      drawAlias: queue ? () => queue.shift() ?? 'exhausted' : undefined,
    })
    const service = createBioPageService({ pages: bindable(createBioPageRepository, context.database.db), aliases, journal: context.services.journal, invalidation: bus, publicUrl: 'https://lw.test', tags: context.services.tags })
    return { service, published }
  }

  const keyOf = (alias: string) => `${ALIAS_TOPIC}:${aliasKey('', alias)}`

  it('announces the alias on create, old and new alias on update, and the alias on delete', async () => {
    const { service, published } = serviceWithRecorder()
    const first = uniqueAlias('First')
    const page = await service.createBioPage(account, { name: 'Announced', alias: first })
    expect(published).toEqual([keyOf(first)])
    expect(keyOf(first)).toBe(`${ALIAS_TOPIC}:\n${first.toLowerCase()}`)

    published.length = 0
    await service.updateBioPage(account, page.id, { description: 'content only' })
    expect(published).toEqual([keyOf(first)])

    published.length = 0
    const second = uniqueAlias('second')
    await service.updateBioPage(account, page.id, { alias: second })
    expect(published).toEqual([keyOf(first), keyOf(second)])

    published.length = 0
    await service.deleteBioPage(account, page.id)
    expect(published).toEqual([keyOf(second)])
  })

  it('announces nothing when a change is refused', async () => {
    const { service, published } = serviceWithRecorder()
    const page = await service.createBioPage(account, { name: 'Quiet' })
    published.length = 0
    await expect(service.updateBioPage(account, page.id, { alias: 'api' })).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(service.updateBioPage({ ...account, id: account.id + 1000 }, page.id, { name: 'Other account' })).rejects.toMatchObject({ code: 'not_found' })
    await expect(service.deleteBioPage({ ...account, id: account.id + 1000 }, page.id)).rejects.toMatchObject({ code: 'not_found' })
    expect(published).toEqual([])
  })

  it('draws again when the drawn alias is reserved, a main-host link alias or a bio alias', async () => {
    const linkAlias = uniqueAlias('drawnlink')
    await insertLinkRow(context.database.db, account.id, { alias: linkAlias })
    const bioAlias = uniqueAlias('drawnbio')
    await serviceWithRecorder().service.createBioPage(account, { name: 'Holder', alias: bioAlias })
    const fresh = uniqueAlias('fresh')
    const { service, published } = serviceWithRecorder(['healthz', linkAlias.toUpperCase(), bioAlias, fresh])
    const page = await service.createBioPage(account, { name: 'Drawn' })
    expect(page.alias).toBe(fresh)
    expect(published).toEqual([keyOf(fresh)])
  })

  it('gives up after a bounded number of draws with the typed error, announcing nothing', async () => {
    const taken = uniqueAlias('always')
    await insertLinkRow(context.database.db, account.id, { alias: taken })
    const { service, published } = serviceWithRecorder(Array.from({ length: 50 }, () => taken))
    await expect(service.createBioPage(account, { name: 'Unlucky' })).rejects.toMatchObject({ code: 'aliases_exhausted' })
    expect(published).toEqual([])
  })
})
