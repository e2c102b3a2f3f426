// The alias resolver and host router against a scripted repository: expiry of entries, reads
// racing an invalidation, spellings, and Host header parsing.
import { describe, expect, it } from 'vitest'
import type { AliasResolverRepository, StoredPublicLink } from '../../../src/modules/visits/alias-resolver.repository.js'
import { createAliasResolver, toPublicLink } from '../../../src/modules/visits/alias-resolver.js'
import { createHostRouter, hostnameOf } from '../../../src/modules/visits/host-router.js'
import { aliasKey } from '../../../src/modules/aliases/alias-namespace.js'
import { createLocalInvalidationBus, ALIAS_TOPIC } from '../../../src/core/invalidation.js'

function storedLink(alias: string, url: string, fields: Partial<StoredPublicLink> = {}): StoredPublicLink {
  return {
    id: 1, accountId: 1, clicks: 0, alias, url, title: null, description: null, passwordHash: null, expiresAt: null,
    type: 'direct', targeting: '{}', options: '{}', splashConfig: null, overlay: null, pixels: [], ...fields,
  }
}

/** A repository over an in-memory table of links (keyed by host and lower-cased alias, as the database compares), counting reads; `gate` holds reads until released. */
function scriptedRepository() {
  const links = new Map<string, StoredPublicLink>()
  const domains = new Map<string, { hostname: string; redirectRoot: string | null; redirect404: string | null }>()
  let gate: Promise<void> | null = null
  const reads = { links: 0, bio: 0, domains: 0 }
  const repository = {
    async findLinkByHostAndAlias(host: string, alias: string) {
      reads.links += 1
      const snapshot = links.get(`${host}\n${alias.toLowerCase()}`)
      if (gate) await gate
      return snapshot
    },
    async findBioPageByAlias() {
      reads.bio += 1
      return undefined
    },
    async findDomainByHostname(hostname: string) {
      reads.domains += 1
      return domains.get(hostname)
    },
    async insertContact() {},
  } as AliasResolverRepository
  return {
    repository, links, domains, reads,
    hold() {
      let release!: () => void
      gate = new Promise((resolve) => (release = resolve))
      return () => {
        gate = null
        release()
      }
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('createAliasResolver', () => {
  it("expires entries after the bus's maxStaleMs even without an announcement", async () => {
    const scripted = scriptedRepository()
    scripted.links.set('\nabcdef', storedLink('abcdef', 'https://old.example/'))
    const resolver = createAliasResolver({ lookups: scripted.repository, invalidation: createLocalInvalidationBus(30) })
    await resolver.resolve('', 'abcdef')
    scripted.links.set('\nabcdef', storedLink('abcdef', 'https://new.example/'))
    const cached = await resolver.resolve('', 'abcdef')
    expect(cached.kind === 'link' && cached.link.url).toBe('https://old.example/')
    await sleep(40)
    const fresh = await resolver.resolve('', 'abcdef')
    expect(fresh.kind === 'link' && fresh.link.url).toBe('https://new.example/')
    expect(scripted.reads.links).toBe(2)
  })

  it('does not cache a read that an invalidation overtook', async () => {
    const scripted = scriptedRepository()
    const bus = createLocalInvalidationBus(60_000)
    const resolver = createAliasResolver({ lookups: scripted.repository, invalidation: bus })
    scripted.links.set('\nracing', storedLink('racing', 'https://old.example/'))
    const release = scripted.hold()
    const pending = resolver.resolve('', 'racing')
    scripted.links.set('\nracing', storedLink('racing', 'https://new.example/'))
    bus.publish(ALIAS_TOPIC, aliasKey('', 'racing'))
    release()
    await pending
    const after = await resolver.resolve('', 'racing')
    expect(after.kind === 'link' && after.link.url).toBe('https://new.example/')
    expect(scripted.reads.links).toBe(2)
  })

  it('answers every spelling of an alias from one entry, read once', async () => {
    const scripted = scriptedRepository()
    scripted.links.set('\nmixedcase', storedLink('MixedCase', 'https://mixed.example/'))
    const resolver = createAliasResolver({ lookups: scripted.repository, invalidation: createLocalInvalidationBus(60_000) })
    for (const spelling of ['mixedcase', 'MixedCase', 'MIXEDCASE']) {
      const resolved = await resolver.resolve('', spelling)
      expect(resolved.kind === 'link' && resolved.link.alias).toBe('MixedCase')
    }
    expect(scripted.reads.links).toBe(1)
  })

  it('shares one read among concurrent misses in different spellings, and one invalidation drops them all', async () => {
    const scripted = scriptedRepository()
    const bus = createLocalInvalidationBus(60_000)
    scripted.links.set('\nposter', storedLink('Poster', 'https://old.example/'))
    const resolver = createAliasResolver({ lookups: scripted.repository, invalidation: bus })
    const answers = await Promise.all(['Poster', 'poster', 'POSTER'].map((spelling) => resolver.resolve('', spelling)))
    expect(answers.map((answer) => answer.kind)).toEqual(['link', 'link', 'link'])
    expect(scripted.reads.links).toBe(1)
    scripted.links.set('\nposter', storedLink('Poster', 'https://new.example/'))
    bus.publish(ALIAS_TOPIC, aliasKey('', 'POSTER'))
    const fresh = await resolver.resolve('', 'poster')
    expect(fresh.kind === 'link' && fresh.link.url).toBe('https://new.example/')
    expect(scripted.reads.links).toBe(2)
  })

  it('reads no bio page off the main host', async () => {
    const scripted = scriptedRepository()
    const resolver = createAliasResolver({ lookups: scripted.repository, invalidation: createLocalInvalidationBus(60_000) })
    await resolver.resolve('go.brand.test', 'nothing')
    expect(scripted.reads).toEqual({ links: 1, bio: 0, domains: 0 })
  })

  it('evicts the least recently used alias beyond maxEntries', async () => {
    const scripted = scriptedRepository()
    const resolver = createAliasResolver({ lookups: scripted.repository, invalidation: createLocalInvalidationBus(60_000), maxEntries: 2 })
    for (const alias of ['first', 'second', 'first', 'third', 'first', 'second']) await resolver.resolve('', alias)
    // first (miss), second (miss), first (hit), third (miss, evicts second), first (hit), second (miss)
    expect(scripted.reads.links).toBe(4)
  })
})

describe('toPublicLink', () => {
  it('parses the splash page and overlay once, within their ranges', () => {
    const link = toPublicLink(storedLink('abc', 'https://x.example/', {
      type: 'overlay',
      splashConfig: JSON.stringify({ title: 'T', counter: 500 }),
      overlay: { id: 4, type: 'contact', config: JSON.stringify({ email: 'a@b.co', title: '', count: 3 }) },
    }))
    expect(link.splash).toEqual({ title: 'T', description: null, image: null, link: null, counter: 60 })
    expect(link.overlay).toEqual({ id: 4, type: 'contact', config: { email: 'a@b.co' } })
  })

  it('serves unknown link and overlay types plainly', () => {
    const link = toPublicLink(storedLink('abc', 'https://x.example/', { type: 'teleport', overlay: { id: 1, type: 'popup', config: '{}' } }))
    expect(link.type).toBe('direct')
    expect(link.overlay).toBeNull()
  })

  it('keeps only pixels of known providers, even ones named like object properties', () => {
    const pixels = [{ type: 'myspace', tag: 'x' }, { type: 'constructor', tag: 'x' }, { type: '__proto__', tag: 'x' }, { type: 'fbpixel', tag: '123456789012' }]
    expect(toPublicLink(storedLink('abc', 'https://x.example/', { pixels })).pixels).toEqual([{ type: 'fbpixel', tag: '123456789012' }])
  })
})

describe('host routing', () => {
  it.each([
    ['Go.Brand.Test:8443', 'go.brand.test'],
    ['go.brand.test.', 'go.brand.test'],
    ['[::1]:3000', ''],
    [undefined, ''],
  ])('reads the hostname of %j as %j', (header, hostname) => {
    expect(hostnameOf(header)).toBe(hostname)
  })

  it('looks up neither the public host nor names that cannot be domains', async () => {
    const scripted = scriptedRepository()
    const router = createHostRouter({ lookups: scripted.repository, invalidation: createLocalInvalidationBus(60_000), publicUrl: 'https://lw.test' })
    for (const header of ['lw.test', 'LW.TEST:443', '', '[::1]', 'localhost:3000', '127.0.0.1:8080', '10.1.2.3']) expect(await router.namespaceOf(header)).toEqual({ host: '', domain: null })
    for (const header of ['bad_host!', 'lw.test.evil!']) expect(await router.namespaceOf(header)).toBeNull()
    expect(scripted.reads.domains).toBe(0)
  })

  it('answers no namespace for a host that is neither the public one nor a branded domain (ADR 028)', async () => {
    const scripted = scriptedRepository()
    scripted.domains.set('go.brand.test', { hostname: 'go.brand.test', redirectRoot: null, redirect404: null })
    const router = createHostRouter({ lookups: scripted.repository, invalidation: createLocalInvalidationBus(60_000), publicUrl: 'https://lw.test' })
    expect(await router.namespaceOf('not-added.example')).toBeNull()
    expect(router.peekNamespace('not-added.example')).toBeNull()
    expect(router.peekNamespace('other.example')).toBeUndefined()
    expect((await router.namespaceOf('go.brand.test'))?.host).toBe('go.brand.test')
  })

  it('keeps domain entries at most 5 seconds, however long the bus allows', async () => {
    const scripted = scriptedRepository()
    scripted.domains.set('go.brand.test', { hostname: 'go.brand.test', redirectRoot: null, redirect404: null })
    let now = 0
    const realNow = Date.now
    Date.now = () => now
    try {
      const router = createHostRouter({ lookups: scripted.repository, invalidation: createLocalInvalidationBus(60_000), publicUrl: 'https://lw.test' })
      expect((await router.namespaceOf('go.brand.test'))?.host).toBe('go.brand.test')
      now = 4_999
      await router.namespaceOf('go.brand.test')
      expect(scripted.reads.domains).toBe(1)
      now = 5_000
      await router.namespaceOf('go.brand.test')
      expect(scripted.reads.domains).toBe(2)
    } finally {
      Date.now = realNow
    }
  })
})
