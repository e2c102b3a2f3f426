// The UTM merge rule (src/core/utm.ts), the one copy both a visit (the destination it redirects to)
// and the link builder's preview (web/src/links/utm.ts) use: a parameter of the same name replaced
// where it stands, the others and the fragment kept, values encoded.
import { describe, expect, it } from 'vitest'
import { withUtmParameters } from '../../src/core/utm.js'

describe('withUtmParameters', () => {
  it('adds the parameters to a URL without a query, in a fixed order', () => {
    expect(withUtmParameters('https://example.com/spring', { campaign: 'spring', source: 'newsletter' }))
      .toBe('https://example.com/spring?utm_source=newsletter&utm_campaign=spring')
  })

  it('replaces a parameter of the same name where it stands and keeps the others as written', () => {
    expect(withUtmParameters('https://example.com/p?a=1&utm_source=old&b=x%20y+z&utm_source=again', { source: 'new', medium: 'email' }))
      .toBe('https://example.com/p?a=1&utm_source=new&b=x%20y+z&utm_medium=email')
  })

  it('keeps the fragment after the query', () => {
    expect(withUtmParameters('https://example.com/p?a=1#section-2', { source: 'x' })).toBe('https://example.com/p?a=1&utm_source=x#section-2')
    expect(withUtmParameters('https://example.com/p#top', { term: 'shoes' })).toBe('https://example.com/p?utm_term=shoes#top')
  })

  it('encodes values and matches encoded names', () => {
    expect(withUtmParameters('https://example.com/?utm%5Fcontent=old', { content: 'a&b = c/ä' }))
      .toBe('https://example.com/?utm_content=a%26b%20%3D%20c%2F%C3%A4')
  })

  it('leaves a name of another letter case alone (analytics tools tell them apart)', () => {
    expect(withUtmParameters('https://example.com/?UTM_SOURCE=x', { source: 'y' })).toBe('https://example.com/?UTM_SOURCE=x&utm_source=y')
  })

  it('leaves the URL as it is when no parameter is set', () => {
    expect(withUtmParameters('https://example.com/p?utm_source=x#top', {})).toBe('https://example.com/p?utm_source=x#top')
  })
})
