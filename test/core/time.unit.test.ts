import { describe, expect, it } from 'vitest'
import { TIMESTAMP_INPUT_PATTERN, toStoredTimestamp } from '../../src/core/time.js'

describe('toStoredTimestamp', () => {
  it.each([
    ['2030-06-30 12:34:56', '2030-06-30 12:34:56'],
    ['2030-06-30', '2030-06-30 00:00:00'],
    ['2028-02-29', '2028-02-29 00:00:00'],
    [' 2030-01-01 23:59:59 ', '2030-01-01 23:59:59'],
  ])('stores %j as %j', (input, stored) => {
    expect(toStoredTimestamp(input)).toBe(stored)
  })

  it.each(['2030-02-30', '2027-02-29', '2030-13-01', '2030-00-10', '2030-01-01 24:00:00', '2030-01-01 12:60:00', '0099-01-01', '2030-1-1', '2030-01-01T00:00:00', 'tomorrow', ''])(
    'refuses %j',
    (input) => {
      expect(toStoredTimestamp(input)).toBeUndefined()
    },
  )

  it('has a schema pattern that admits the same two spellings', () => {
    const pattern = new RegExp(TIMESTAMP_INPUT_PATTERN)
    expect(pattern.test('2030-06-30 12:34:56')).toBe(true)
    expect(pattern.test('2030-06-30')).toBe(true)
    expect(pattern.test('2030-06-30T12:34:56Z')).toBe(false)
  })
})
