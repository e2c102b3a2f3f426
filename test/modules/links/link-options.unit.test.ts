// A link's options as written and read (src/modules/links/link-options.ts); the UTM merge a visit
// applies to the chosen destination is tested with its owner, test/core/utm.unit.test.ts.
import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../../src/core/errors.js'
import { chooseVariant, emptyOptions, mergeOptions, normaliseUtm, normaliseVariants, parseStoredOptions, serialiseOptions } from '../../../src/modules/links/link-options.js'

function fieldOf(action: () => unknown): string | undefined {
  try {
    action()
  } catch (error) {
    if (error instanceof ValidationError) return error.field
    throw error
  }
  return undefined
}

describe('normaliseUtm', () => {
  it('trims values, leaves out empty ones, and answers null when none is left', () => {
    expect(normaliseUtm({ source: ' mail ', medium: '', term: undefined })).toEqual({ source: 'mail' })
    expect(normaliseUtm({ source: '  ' })).toBeNull()
    expect(normaliseUtm({})).toBeNull()
    expect(normaliseUtm(null)).toBeNull()
  })

  it('names the value at fault', () => {
    expect(fieldOf(() => normaliseUtm({ source: 'x'.repeat(201) }))).toBe('utm.source')
    expect(fieldOf(() => normaliseUtm({ medium: 'a\u0007b' }))).toBe('utm.medium')
    expect(fieldOf(() => normaliseUtm({ content: 'a\nb' }))).toBe('utm.content')
    expect(fieldOf(() => normaliseUtm({ sorce: 'x' }))).toBe('utm')
    expect(fieldOf(() => normaliseUtm({ source: 'x'.repeat(200) }))).toBeUndefined()
  })
})

describe('stored options', () => {
  it('round-trips, and a link without options stores {}', () => {
    expect(serialiseOptions(emptyOptions())).toBe('{}')
    const options = mergeOptions(emptyOptions(), { utm: { source: 'mail', campaign: 'spring' } })
    expect(parseStoredOptions(serialiseOptions(options))).toEqual(options)
  })

  it('keeps what is not given and removes what is given as null', () => {
    const stored = mergeOptions(emptyOptions(), { utm: { source: 'mail' } })
    expect(mergeOptions(stored, {})).toEqual(stored)
    expect(mergeOptions(stored, { utm: null })).toEqual(emptyOptions())
    expect(mergeOptions(stored, { utm: { medium: 'email' } }).utm).toEqual({ medium: 'email' })
  })

  it('leaves out what a write would refuse rather than failing a visit', () => {
    expect(parseStoredOptions('not json')).toEqual(emptyOptions())
    expect(parseStoredOptions(JSON.stringify({ utm: { source: 'x'.repeat(300), medium: 'ok', other: 'y' } }))).toEqual({ ...emptyOptions(), utm: { medium: 'ok' } })
    expect(parseStoredOptions(JSON.stringify({ utm: 'text' }))).toEqual(emptyOptions())
    expect(parseStoredOptions(JSON.stringify({ clicklimit: 0, expiredurl: 'javascript:alert(1)' }))).toEqual(emptyOptions())
    expect(parseStoredOptions(JSON.stringify({ clicklimit: '5', expiredurl: 5 }))).toEqual(emptyOptions())
    expect(parseStoredOptions(JSON.stringify({ clicklimit: 5, expiredurl: 'https://example.com/x' }))).toEqual({ ...emptyOptions(), clickLimit: 5, expiredUrl: 'https://example.com/x' })
    expect(parseStoredOptions(JSON.stringify({ ios: 'itms-apps://x', android: 'https://play.example/app' }))).toEqual({ ...emptyOptions(), android: 'https://play.example/app' })
  })

  it('checks a click cap and a fallback address, naming the field', () => {
    expect(mergeOptions(emptyOptions(), { clicklimit: 1, expiredurl: ' https://example.com/after ' })).toEqual({ ...emptyOptions(), clickLimit: 1, expiredUrl: 'https://example.com/after' })
    expect(fieldOf(() => mergeOptions(emptyOptions(), { clicklimit: 0 }))).toBe('clicklimit')
    expect(fieldOf(() => mergeOptions(emptyOptions(), { clicklimit: 1_000_000_001 }))).toBe('clicklimit')
    expect(fieldOf(() => mergeOptions(emptyOptions(), { clicklimit: 1.5 }))).toBe('clicklimit')
    expect(fieldOf(() => mergeOptions(emptyOptions(), { expiredurl: 'ftp://example.com' }))).toBe('expiredurl')
    const stored = mergeOptions(emptyOptions(), { clicklimit: 9, expiredurl: 'https://example.com/after' })
    expect(mergeOptions(stored, { expiredurl: '' })).toEqual({ ...emptyOptions(), clickLimit: 9, expiredUrl: null })
    expect(mergeOptions(stored, { clicklimit: null })).toEqual({ ...emptyOptions(), clickLimit: null, expiredUrl: 'https://example.com/after' })
  })
})

describe('split-test variants', () => {
  const variants = [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 3 }]

  it('gives one visitor key one variant, and shares keys by weight', () => {
    expect(chooseVariant(variants, 'day\nvisitor')).toBe(chooseVariant(variants, 'day\nvisitor'))
    const counts = [0, 0]
    for (let visitor = 0; visitor < 4000; visitor += 1) counts[chooseVariant(variants, `2026-01-01\n${visitor}`)]! += 1
    expect(counts[1]! / 4000).toBeGreaterThan(0.7)
    expect(counts[1]! / 4000).toBeLessThan(0.8)
  })

  it('checks the list, naming the entry at fault, and removes it with [] or null', () => {
    expect(normaliseVariants([{ url: ' https://example.com/a ', weight: 2 }, { url: 'https://example.com/b', weight: 1 }])).toEqual([{ url: 'https://example.com/a', weight: 2 }, { url: 'https://example.com/b', weight: 1 }])
    expect(normaliseVariants([])).toBeNull()
    expect(normaliseVariants(null)).toBeNull()
    expect(fieldOf(() => normaliseVariants([{ url: 'https://example.com/a', weight: 1 }]))).toBe('variants')
    expect(fieldOf(() => normaliseVariants([{ url: 'https://example.com/a', weight: 1 }, { url: 'ftp://x', weight: 1 }]))).toBe('variants.1.url')
    expect(fieldOf(() => normaliseVariants([{ url: 'https://example.com/a', weight: 1_000_001 }, { url: 'https://example.com/b', weight: 1 }]))).toBe('variants.0.weight')
    // A stored list a write would refuse is left out whole.
    expect(parseStoredOptions(JSON.stringify({ variants: [{ url: 'https://example.com/a', weight: 1 }] })).variants).toBeNull()
  })
})
