// The one reading of a list's `?page`: a whole number from 1 up, else the first page (a
// hand-edited or truncated address shows a list, not a refusal).
import { describe, expect, it } from 'vitest'
import { pageOf } from './list-page'

describe('pageOf', () => {
  it('reads a page from 1 up, and the first page for anything else', () => {
    const cases: Array<[string, number]> = [['', 1], ['?page=3', 3], ['?tag=a&page=12', 12], ['?page=0', 1], ['?page=-2', 1], ['?page=2.5', 1], ['?page=abc', 1], ['?page=', 1]]
    expect(cases.map(([search]) => [search, pageOf(new URLSearchParams(search))])).toEqual(cases)
  })
})
