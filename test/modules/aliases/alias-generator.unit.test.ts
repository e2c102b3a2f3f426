// The one alias generator: its alphabet, its lengths per use, and the longest alias a retry draws.
import { describe, expect, it } from 'vitest'
import { drawRandomAlias, GENERATED_ALIAS_ALPHABET, GENERATED_ALIAS_LENGTH } from '../../../src/modules/aliases/alias-generator.js'
import { GENERATION_ATTEMPTS, longestGeneratedAlias } from '../../../src/modules/aliases/alias.service.js'

describe('alias generator', () => {
  it('uses no character a reader could confuse, and no upper case', () => {
    expect(GENERATED_ALIAS_ALPHABET).not.toMatch(/[0oO1lIi]/)
    expect(GENERATED_ALIAS_ALPHABET).toBe(GENERATED_ALIAS_ALPHABET.toLowerCase())
    expect(new Set(GENERATED_ALIAS_ALPHABET).size).toBe(GENERATED_ALIAS_ALPHABET.length)
  })

  it('draws aliases of the requested length from the alphabet, spread over it', () => {
    const drawn = Array.from({ length: 500 }, () => drawRandomAlias(6))
    for (const alias of drawn) expect(alias).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{6}$/)
    expect(new Set(drawn).size).toBeGreaterThan(495)
    // Every character turns up: 3,000 draws over 31 characters miss one with probability ~1e-41.
    expect(new Set(drawn.join('')).size).toBe(GENERATED_ALIAS_ALPHABET.length)
    expect(drawRandomAlias(9)).toHaveLength(9)
  })

  it('keeps links and bio pages typeable and QR aliases longer', () => {
    expect(GENERATED_ALIAS_LENGTH).toEqual({ link: 6, bio: 6, qr: 8 })
    expect(longestGeneratedAlias('qr')).toHaveLength(8 + GENERATION_ATTEMPTS - 1)
    expect(longestGeneratedAlias('link')).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]+$/)
  })
})
