import { bindable } from '../../../src/db/transactions.js'
import { describe, expect, it } from 'vitest'
import { createLinkChanges } from '../../../src/modules/links/link-changes.js'
import { createLinkCreation } from '../../../src/modules/links/link-creation.js'
import { createLinkRepository } from '../../../src/modules/links/link.repository.js'
import { createLinkService } from '../../../src/modules/links/link.service.js'
import { createDomainRepository } from '../../../src/modules/domains/domain.repository.js'
import { createPixelRepository } from '../../../src/modules/pixels/pixel.repository.js'
import { createCampaignRepository } from '../../../src/modules/campaigns/campaign.repository.js'
import { createChannelRepository } from '../../../src/modules/channels/channel.repository.js'
import { createSplashPageRepository } from '../../../src/modules/splash-pages/splash-page.repository.js'
import { createOverlayRepository } from '../../../src/modules/overlays/overlay.repository.js'
import { aliasKey } from '../../../src/modules/aliases/alias-namespace.js'
import { createAliasRepository, type AliasRepository } from '../../../src/modules/aliases/alias.repository.js'
import { createAliasService } from '../../../src/modules/aliases/alias.service.js'
import { PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { actingAs, createBioPage, createDomain, createPixel, uniqueName } from '../../helpers/factories.js'
import { ALIAS_TOPIC, createLocalInvalidationBus } from '../../../src/core/invalidation.js'

const RESERVED = 'This alias is reserved. Please choose another one.'
const TAKEN = 'That alias is taken. Please choose another one.'

describe('short link aliases', () => {
  const { context, owner, api, otherApi } = useTestApp()

  it.each(['api', 'API', 'App', 'healthz', 'readyz', 'Metrics'])('refuses the reserved alias %s', async (custom) => {
    const response = await api('POST', '/api/url/add', { url: 'https://a.example', custom })
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual({ error: 1, message: RESERVED, code: 'validation_failed', field: 'custom' })
    const link = await api('POST', '/api/url/add', { url: 'https://a.example' })
    const update = await api('PUT', `/api/url/${link.data.id}/update`, { custom })
    expect(update.statusCode).toBe(400)
    expect(update.data.message).toBe(RESERVED)
  })

  it('keeps an alias unique per host in any letter case, across accounts', async () => {
    await api('POST', '/api/url/add', { url: 'https://a.example', custom: 'Spring-Sale' })
    for (const custom of ['Spring-Sale', 'spring-sale', 'SPRING-SALE']) {
      const clash = await otherApi('POST', '/api/url/add', { url: 'https://b.example', custom })
      expect(clash.statusCode).toBe(400)
      expect(clash.data).toEqual({ error: 1, message: TAKEN, code: 'duplicate', field: 'custom' })
    }
    const link = await api('POST', '/api/url/add', { url: 'https://a.example' })
    const update = await api('PUT', `/api/url/${link.data.id}/update`, { custom: 'spring-SALE' })
    expect(update.statusCode).toBe(400)
    expect(update.data.message).toBe(TAKEN)
  })

  it('allows the same alias on different domains, and checks the alias when a link moves domain', async () => {
    const domain = await createDomain(context, owner)
    const main = await api('POST', '/api/url/add', { url: 'https://a.example', custom: 'same-alias' })
    const branded = await api('POST', '/api/url/add', { url: 'https://a.example', custom: 'same-alias', domain: domain.origin })
    expect(branded.statusCode).toBe(201)
    expect(branded.data.shorturl).toBe(`${domain.origin}/same-alias`)
    const clash = await api('POST', '/api/url/add', { url: 'https://a.example', custom: 'SAME-alias', domain: domain.id })
    expect(clash.data.message).toBe(TAKEN)
    const move = await api('PUT', `/api/url/${main.data.id}/update`, { domain: domain.id })
    expect(move.statusCode).toBe(400)
    expect(move.data.message).toBe(TAKEN)
    const moveRenamed = await api('PUT', `/api/url/${main.data.id}/update`, { domain: domain.id, custom: 'moved-alias' })
    expect(moveRenamed.data.shorturl).toBe(`${domain.origin}/moved-alias`)
  })

  it('shares the main domain’s namespace with bio pages, but not a branded domain’s', async () => {
    const alias = uniqueName('bio')
    await createBioPage(context, owner, { alias })
    const clash = await otherApi('POST', '/api/url/add', { url: 'https://a.example', custom: alias.toUpperCase() })
    expect(clash.statusCode).toBe(400)
    expect(clash.data.message).toBe(TAKEN)
    const domain = await createDomain(context, owner)
    expect((await api('POST', '/api/url/add', { url: 'https://a.example', custom: alias, domain: domain.id })).statusCode).toBe(201)
  })

  it('generates 50 distinct aliases for 50 concurrent creates', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, (_, index) => api('POST', '/api/url/add', { url: `https://concurrent.example/${index}` })))
    expect(responses.map((response) => response.statusCode)).toEqual(Array(50).fill(201))
    const aliases = responses.map((response) => response.data.shorturl.slice(PUBLIC_URL.length + 1))
    expect(new Set(aliases).size).toBe(50)
    for (const alias of aliases) expect(alias).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{6}$/)
  })

  it('lets concurrent creates with the same custom alias produce exactly one link', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () => api('POST', '/api/url/add', { url: 'https://race.example', custom: 'raced-alias' })))
    const statuses = responses.map((response) => response.statusCode).sort()
    expect(statuses).toEqual([201, ...Array(9).fill(400)])
    for (const response of responses.filter((r) => r.statusCode === 400)) expect(response.data.message).toBe(TAKEN)
  })

  describe('drawing aliases (service)', () => {
    function serviceDrawing(draws: string[], options: { skipAliasCheck?: boolean } = {}) {
      const lengths: number[] = []
      const invalidation = createLocalInvalidationBus(1000)
      const announced: string[] = []
      invalidation.subscribe((topic, key) => announced.push(`${topic}:${key}`))
      // Without the check, the insert itself meets the unique constraint, as a racing request would.
      const namespace: AliasRepository = options.skipAliasCheck ? { isAliasTaken: async () => false, takenAmong: async () => new Set<string>() } : createAliasRepository(context.database.db)
      const aliases = createAliasService({
        namespace,
        drawAlias: (length) => {
          lengths.push(length)
          const next = draws.shift()
          if (next === undefined) throw new Error('no more draws')
          return next
        },
      })
      const links = bindable(createLinkRepository, context.database.db)
      const { journal, tags } = context.services
      const changes = createLinkChanges({ links, tags, publicUrl: 'https://lw.test', invalidation })
      const db = context.database.db
      // What a link's fields name, each looked up in its own module (as services.ts wires it).
      const lookups = { tags, domains: createDomainRepository(db), pixels: createPixelRepository(db), campaigns: createCampaignRepository(db), channels: createChannelRepository(db), splashPages: createSplashPageRepository(db), overlays: createOverlayRepository(db) }
      const service = createLinkService({ links, aliases, journal, tags, changes, lookups, creation: createLinkCreation({ links, tags, changes, lookups, workspaceDefaults: { tracksConversionsByDefault: async () => false } }) })
      return { service, lengths, announced }
    }

    it('skips reserved words, bio aliases and taken aliases, growing the length on each retry', async () => {
      const bioAlias = uniqueName('drawn')
      await createBioPage(context, owner, { alias: bioAlias })
      const taken = uniqueName('taken')
      await api('POST', '/api/url/add', { url: 'https://a.example', custom: taken })
      const free = uniqueName('free')
      const { service, lengths } = serviceDrawing(['readyz', bioAlias.toUpperCase(), taken, free])
      const created = await service.createLink(await actingAs(context, owner), { url: 'https://drawn.example' })
      expect(created.alias).toBe(free)
      expect(lengths).toEqual([6, 7, 8, 9])
    })

    it('draws again when the insert meets the unique constraint', async () => {
      const taken = uniqueName('racing')
      await api('POST', '/api/url/add', { url: 'https://a.example', custom: taken })
      const free = uniqueName('after-race')
      const { service, lengths } = serviceDrawing([taken, free], { skipAliasCheck: true })
      const created = await service.createLink(await actingAs(context, owner), { url: 'https://drawn.example', pixels: [await createPixel(context, owner)] })
      expect(created.alias).toBe(free)
      expect(lengths).toEqual([6, 7])
      // The failed attempt left nothing behind: one link with one pixel row.
      const rows = await context.database.db.selectFrom('link_pixels').select('link_id').where('link_id', '=', created.id).execute()
      expect(rows).toHaveLength(1)
    })

    it('answers "taken" when a custom alias loses the race at the unique constraint', async () => {
      const taken = uniqueName('lost-race')
      await api('POST', '/api/url/add', { url: 'https://a.example', custom: taken })
      const { service } = serviceDrawing([], { skipAliasCheck: true })
      await expect(service.createLink(await actingAs(context, owner), { url: 'https://a.example', custom: taken })).rejects.toMatchObject({ code: 'duplicate', message: TAKEN })
      const other = await service.createLink(await actingAs(context, owner), { url: 'https://a.example', custom: uniqueName('own') })
      await expect(service.updateLink(await actingAs(context, owner), other.id, { custom: taken })).rejects.toMatchObject({ code: 'duplicate', message: TAKEN })
    })

    it('gives up after five draws without a free alias, with the typed error', async () => {
      const taken = uniqueName('always')
      await api('POST', '/api/url/add', { url: 'https://a.example', custom: taken })
      const { service, lengths, announced } = serviceDrawing(Array(5).fill(taken))
      await expect(service.createLink(await actingAs(context, owner), { url: 'https://drawn.example' })).rejects.toMatchObject({ code: 'aliases_exhausted' })
      expect(lengths).toEqual([6, 7, 8, 9, 10])
      expect(announced).toEqual([])
    })

    it('announces the alias on create, the old and new alias on update, and the alias on delete', async () => {
      const domain = await createDomain(context, owner)
      const first = uniqueName('announce')
      const { service, announced } = serviceDrawing([first])
      const created = await service.createLink(await actingAs(context, owner), { url: 'https://announced.example' })
      expect(announced).toEqual([`${ALIAS_TOPIC}:${aliasKey('', first)}`])
      announced.length = 0
      await service.updateLink(await actingAs(context, owner), created.id, { custom: 'Renamed-Announce', domain: domain.origin })
      expect(announced).toEqual([`${ALIAS_TOPIC}:${aliasKey('', first)}`, `${ALIAS_TOPIC}:${aliasKey(domain.hostname, 'renamed-announce')}`])
      announced.length = 0
      await service.updateLink(await actingAs(context, owner), created.id, { url: 'https://announced.example/2' })
      expect(announced).toEqual([`${ALIAS_TOPIC}:${aliasKey(domain.hostname, 'Renamed-Announce')}`])
      announced.length = 0
      await service.deleteLink(await actingAs(context, owner), created.id)
      expect(announced).toEqual([`${ALIAS_TOPIC}:${aliasKey(domain.hostname, 'Renamed-Announce')}`])
    })
  })
})
