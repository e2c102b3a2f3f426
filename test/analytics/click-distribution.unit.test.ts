// The synthetic traffic of `linkwell dev seed-clicks` and the analytics bench: Zipf over the
// issue's value counts, deterministic for a seed.
import { describe, expect, it } from 'vitest'
import { createVisitSource, randomSource, zipfSampler, ZIPF_BROWSERS, ZIPF_COUNTRIES, ZIPF_REFERRERS } from '../../src/analytics/click-distribution.js'

describe('synthetic click distribution', () => {
  it('has 200 countries, 500 referrers and 30 browsers, all distinct', () => {
    expect(new Set(ZIPF_COUNTRIES).size).toBe(200)
    expect(new Set(ZIPF_REFERRERS).size).toBe(500)
    expect(new Set(ZIPF_BROWSERS).size).toBe(30)
    for (const code of ZIPF_COUNTRIES) expect(code).toMatch(/^(?:[A-Z]{2})?$/)
  })

  it('draws ranks with probability ∝ 1/rank (within a few percent over 200,000 draws)', () => {
    const draw = zipfSampler(10)
    const random = randomSource(42)
    const counts = new Array<number>(10).fill(0)
    for (let index = 0; index < 200_000; index += 1) counts[draw(random)]! += 1
    const harmonic = Array.from({ length: 10 }, (_, rank) => 1 / (rank + 1)).reduce((a, b) => a + b)
    counts.forEach((count, rank) => expect(count / 200_000).toBeCloseTo(1 / (rank + 1) / harmonic, 2))
  })

  it('gives the same visits for the same seed and others for another', () => {
    const take = (seed: number) => { const source = createVisitSource(seed); return Array.from({ length: 50 }, () => source.next()) }
    expect(take(7)).toEqual(take(7))
    expect(take(7)).not.toEqual(take(8))
    const visits = take(7)
    for (const visit of visits) expect(['desktop', 'mobile', 'tablet']).toContain(visit.agent.device)
  })
})
