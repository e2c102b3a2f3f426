// Aliases are resolved regardless of letter case, as they are unique regardless of it
// (docs/adr/006-alias-case.md): `/promo` serves the link created as `Promo`, on both databases,
// through the resolver's cache and its invalidation.
import { describe, expect, it } from 'vitest'
import { createAliasResolverRepository } from '../../../src/modules/visits/alias-resolver.repository.js'
import { useTestApp } from '../../helpers/test-app.js'
import { createDomain, insertBioPageRow, insertLinkRow, uniqueAlias } from '../../helpers/factories.js'

describe('alias letter case on the public side', () => {
  const { context, owner, api } = useTestApp()

  const visit = (path: string, host?: string) => context.app.inject({ method: 'GET', url: path, headers: host ? { host } : {} })

  it('serves a link at every spelling of its alias', async () => {
    const alias = uniqueAlias('Promo')
    const created = await api('POST', '/api/url/add', { url: 'https://shop.example/promo', custom: alias })
    expect(created.statusCode).toBe(201)
    for (const spelling of [alias, alias.toLowerCase(), alias.toUpperCase()]) {
      const response = await visit(`/${spelling}`)
      expect([spelling, response.statusCode, response.headers.location]).toEqual([spelling, 302, 'https://shop.example/promo'])
    }
  })

  it('serves a bio page at every spelling of its alias', async () => {
    const alias = uniqueAlias('Jane')
    await insertBioPageRow(context.database.db, owner.id, { alias, name: 'Jane on a poster' })
    for (const spelling of [alias.toLowerCase(), alias.toUpperCase(), alias]) {
      const response = await visit(`/${spelling}`)
      expect(response.statusCode).toBe(200)
      expect(response.body).toContain('Jane on a poster')
    }
  })

  it('serves a branded domain’s link at every spelling, on that domain only', async () => {
    const { hostname } = await createDomain(context, owner)
    const alias = uniqueAlias('Sale')
    await insertLinkRow(context.database.db, owner.id, { alias, host: hostname, url: 'https://shop.example/sale' })
    expect((await visit(`/${alias.toLowerCase()}`, hostname)).headers.location).toBe('https://shop.example/sale')
    expect((await visit(`/${alias.toUpperCase()}`, hostname.toUpperCase())).headers.location).toBe('https://shop.example/sale')
    expect((await visit(`/${alias.toLowerCase()}`)).statusCode).toBe(404)
  })

  it('forgets every spelling when the link changes or goes, whichever spelling was cached', async () => {
    const alias = uniqueAlias('Cached')
    const created = await api('POST', '/api/url/add', { url: 'https://before.example/', custom: alias })
    expect((await visit(`/${alias.toLowerCase()}`)).headers.location).toBe('https://before.example/')
    await api('PUT', `/api/url/${created.data.id}/update`, { url: 'https://after.example/' })
    expect((await visit(`/${alias.toUpperCase()}`)).headers.location).toBe('https://after.example/')
    await api('DELETE', `/api/url/${created.data.id}/delete`)
    for (const spelling of [alias, alias.toLowerCase(), alias.toUpperCase()]) expect((await visit(`/${spelling}`)).statusCode).toBe(404)
  })

  it('finds the stored spelling in the database whatever spelling is asked for', async () => {
    const repository = createAliasResolverRepository(context.database.db)
    const linkAlias = uniqueAlias('Stored-Link')
    await insertLinkRow(context.database.db, owner.id, { alias: linkAlias })
    expect((await repository.findLinkByHostAndAlias('', linkAlias.toUpperCase()))?.alias).toBe(linkAlias)
    expect(await repository.findLinkByHostAndAlias('elsewhere.example.com', linkAlias)).toBeUndefined()
    const bioAlias = uniqueAlias('Stored-Bio')
    await insertBioPageRow(context.database.db, owner.id, { alias: bioAlias })
    expect((await repository.findBioPageByAlias(bioAlias.toLowerCase()))?.alias).toBe(bioAlias)
  })
})
