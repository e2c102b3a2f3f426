// The passthrough merge rule (ADR 034): a visitor's query merged into a destination.
import { describe, expect, it } from 'vitest'
import { queryOfUrl, withVisitorQuery } from '../../src/core/query-parameters.js'

describe('withVisitorQuery', () => {
  it('appends the visitor parameters in their order to a destination without a query, before the fragment', () => {
    expect(withVisitorQuery('https://shop.example/p#top', 'gclid=abc&utm_source=ads')).toBe('https://shop.example/p?gclid=abc&utm_source=ads#top')
  })

  it('keeps the destination order: a key it already has takes the visitor value where it stands, repeats dropped', () => {
    expect(withVisitorQuery('https://shop.example/?a=1&b=2&a=3&c=4', 'c=9&a=7&d=5')).toBe('https://shop.example/?a=7&b=2&c=9&d=5')
  })

  it('keeps every repeat the visitor sent of one key, together', () => {
    expect(withVisitorQuery('https://shop.example/?tag=x&z=1', 'tag=a&tag=b')).toBe('https://shop.example/?tag=a&tag=b&z=1')
  })

  it('matches names as decoded and keeps the visitor text as sent', () => {
    expect(withVisitorQuery('https://shop.example/?my%20key=1', 'my+key=2&q=a%2Bb')).toBe('https://shop.example/?my+key=2&q=a%2Bb')
  })

  it('escapes what a Location header cannot hold, byte for byte', () => {
    expect(withVisitorQuery('https://shop.example/', 'q=caf\u00e9&h=a#b&s="x"')).toBe('https://shop.example/?q=caf%E9&h=a%23b&s="x"')
    expect(withVisitorQuery('https://shop.example/', 'q=\u2603')).toBe('https://shop.example/?q=%E2%98%83')
  })

  it('leaves the destination alone for an empty query or empty pairs', () => {
    expect(withVisitorQuery('https://shop.example/?a=1', '')).toBe('https://shop.example/?a=1')
    expect(withVisitorQuery('https://shop.example/?a=1', '&&=')).toBe('https://shop.example/?a=1')
  })

  it('reads the query of a request target', () => {
    expect(queryOfUrl('/promo?x=1&y')).toBe('x=1&y')
    expect(queryOfUrl('/promo')).toBe('')
  })
})
