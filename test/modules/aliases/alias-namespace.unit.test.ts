// A visitor's path read as the alias it addresses, and an alias written as a URL (ADR 028): the
// two are each other's inverse for every form a source gave out.
import { describe, expect, it } from 'vitest'
import { aliasKey, aliasOfPath, aliasPath, foldAlias, isServableAlias, shortUrl } from '../../../src/modules/aliases/alias-namespace.js'

const IMPORTED = ['1', 'zz', 'Zq', 'blog.post', 'docs/intro', 'a~b', '50-off!', 'über', 'a b', 'x?y', '100%', 'spring-sale_2']

describe('alias paths', () => {
  it.each([
    ['/promo', 'promo'],
    ['/promo/', 'promo'],
    ['/docs/intro', 'docs/intro'],
    ['/docs%2Fintro', 'docs/intro'],
    ['/%C3%BCber', 'über'],
    ['/u%CC%88ber', 'über'],
    ['/a~b', 'a~b'],
    ['/50-off!', '50-off!'],
  ])('reads %s as %s', (path, alias) => {
    expect(aliasOfPath(path)).toBe(alias)
  })

  it('reads nothing from a bare slash or broken percent-encoding', () => {
    expect(aliasOfPath('/')).toBeUndefined()
    expect(aliasOfPath('/%E0%A4%A')).toBeUndefined()
  })

  it.each(IMPORTED)('writes %s as a path that reads back as itself', (alias) => {
    expect(aliasOfPath(`/${aliasPath(alias)}`)).toBe(alias)
  })

  it('leaves the API\'s aliases as they are and encodes the rest as browsers send them', () => {
    expect(shortUrl('https://lw.test', null, 'spring-sale_2')).toBe('https://lw.test/spring-sale_2')
    expect(shortUrl('https://lw.test', 'https://go.brand.test', 'über')).toBe('https://go.brand.test/%C3%BCber')
    expect(shortUrl('https://lw.test', null, 'docs/intro')).toBe('https://lw.test/docs/intro')
    expect(shortUrl('https://lw.test', null, 'a b')).toBe('https://lw.test/a%20b')
  })

  it('folds ASCII letters only, as SQLite\'s lower() does', () => {
    expect(foldAlias('Spring-SALE')).toBe('spring-sale')
    expect(foldAlias('Über')).toBe('Über')
    expect(aliasKey('', 'PROMO')).toBe(aliasKey('', 'promo'))
  })

  it('serves any imported form but empty, overlong, control characters and reserved paths', () => {
    for (const alias of IMPORTED) expect(isServableAlias(alias), alias).toBe(true)
    for (const alias of ['', 'x'.repeat(256), 'a\nb', 'api', 'qr/x']) expect(isServableAlias(alias), alias).toBe(false)
  })
})
