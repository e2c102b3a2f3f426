// The reserved aliases are the router's own paths (ADR 028): what SERVICE_PATHS lists is exactly
// what a built app answers at the root of a host, one-segment paths and prefixes of deeper ones;
// a route outside the list fails the start. Words that only look like our paths (`r`, `u`, `qr`,
// `docs`, `users`) are free: the router answers `/r/{slug}`, never `/r`.
import { describe, expect, it } from 'vitest'
import { rootOfRoute, servedRootsOf } from '../../../src/app.js'
import { isReservedAlias, SERVICE_PATHS } from '../../../src/modules/aliases/alias-namespace.js'
import { useTestApp } from '../../helpers/test-app.js'
import { createLink } from '../../helpers/factories.js'

describe('reserved paths', () => {
  // Every optional route served (METRICS on), so the list is compared with all of them.
  const { context, owner } = useTestApp({ env: { METRICS: 'on' } })

  it('lists exactly what the router answers at the root', () => {
    expect(servedRootsOf(context.app)).toEqual({ paths: [...SERVICE_PATHS.paths].sort(), prefixes: [...SERVICE_PATHS.prefixes].sort() })
  })

  it('fails the start for a route the list does not cover', () => {
    expect(() => rootOfRoute('/promo')).toThrow('add "promo" to SERVICE_PATHS.paths')
    expect(() => rootOfRoute('/go/:slug')).toThrow('add "go" to SERVICE_PATHS.prefixes')
    expect(rootOfRoute('/qr/:alias/scan')).toEqual({ kind: 'prefixes', segment: 'qr' })
    expect(rootOfRoute('/app/')).toEqual({ kind: 'paths', segment: 'app' })
    for (const visitors of ['/', '/:alias', '/*', '/:alias/contact']) expect(rootOfRoute(visitors)).toBeUndefined()
  })

  it('reserves the one-segment paths and deeper paths under a prefix, nothing else', () => {
    for (const alias of ['api', 'APP', 'healthz', 'readyz', 'Metrics', 'qr/code', 'api/x', 'R/slug', 'a//b', 'a/./b', 'a/../b']) expect(isReservedAlias(alias), alias).toBe(true)
    for (const alias of ['r', 'u', 'qr', 'bio', 'docs', 'users', 'admin', 'login', 'avatar', 'card', 'docs/intro', 'blog.post', 'apix', 'über']) expect(isReservedAlias(alias), alias).toBe(false)
  })

  it('lets the API create a link at a word that only looks like a path, and serves it', async () => {
    for (const custom of ['docs', 'users', 'admin']) {
      const link = await createLink(context, owner, { url: `https://example.com/${custom}`, custom })
      expect((await context.app.inject({ method: 'GET', url: `/${link.alias}` })).headers.location).toBe(`https://example.com/${custom}`)
    }
  })
})
