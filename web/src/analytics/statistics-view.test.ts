// A statistics page's view in its address: read back as written, defaults where the address is
// silent or wrong, chips added once and removed, and the query the API gets for it.
import { describe, expect, it } from 'vitest'
import { addFilter, changeOf, chipLabel, filterQuery, lastDaysIn, parseView, removeFilter, serialiseView, statisticsQuery, todayIn, utcBoundsOfDays, type StatisticsView } from './statistics-view'

const FALLBACK = { from: '2026-10-30', to: '2026-11-28' }

describe('a statistics view in the address', () => {
  it('reads an empty address as the last 30 days by day, without comparison or filter', () => {
    expect(parseView(new URLSearchParams(), FALLBACK)).toEqual({ ...FALLBACK, granularity: 'day', compare: false, filters: [] })
  })

  it('writes a view and reads the same view back, chips grouped by dimension', () => {
    const view: StatisticsView = {
      from: '2026-11-01', to: '2026-11-14', granularity: 'hour', compare: true,
      filters: [{ dimension: 'country', value: 'Germany' }, { dimension: 'browser', value: 'Firefox' }, { dimension: 'country', value: 'United States' }],
    }
    const params = serialiseView(view)
    expect(params.toString()).toBe('from=2026-11-01&to=2026-11-14&granularity=hour&compare=previous&country=Germany&country=United+States&browser=Firefox')
    expect(parseView(new URLSearchParams(params.toString()), FALLBACK)).toEqual({
      ...view,
      filters: [{ dimension: 'country', value: 'Germany' }, { dimension: 'country', value: 'United States' }, { dimension: 'browser', value: 'Firefox' }],
    })
  })

  it('leaves defaults out of the address', () => {
    expect(serialiseView({ ...FALLBACK, granularity: 'day', compare: false, filters: [] }).toString()).toBe('from=2026-10-30&to=2026-11-28')
  })

  it('falls back where the address is wrong: a bad or backwards range, an unknown granularity, hours over 31 days, unknown or unusable filters', () => {
    expect(parseView(new URLSearchParams('from=2026-11-10&to=2026-11-01'), FALLBACK)).toMatchObject(FALLBACK)
    expect(parseView(new URLSearchParams('from=yesterday&to=2026-11-01'), FALLBACK)).toMatchObject(FALLBACK)
    expect(parseView(new URLSearchParams('from=2026-11-01&to=2026-11-28&granularity=minute'), FALLBACK).granularity).toBe('day')
    expect(parseView(new URLSearchParams('from=2026-10-01&to=2026-11-28&granularity=hour'), FALLBACK).granularity).toBe('day')
    expect(parseView(new URLSearchParams('from=2026-10-29&to=2026-11-28&granularity=hour'), FALLBACK).granularity).toBe('hour')
    expect(parseView(new URLSearchParams('from=2026-10-01&to=2026-11-28&granularity=month'), FALLBACK).granularity).toBe('month')
    const view = parseView(new URLSearchParams('compare=yes&link=4&country=&country=a,b&country=Germany&country=Germany&tag=x'), FALLBACK)
    expect(view.compare).toBe(false)
    expect(view.filters).toEqual([{ dimension: 'country', value: 'Germany' }])
  })

  it('reads the workspace\'s chips (link, campaign, channel, tag) only where asked, and writes them after the clicks\' own', () => {
    const address = new URLSearchParams('campaign=3&country=Germany&tag=spring&link=4')
    expect(parseView(address, FALLBACK).filters).toEqual([{ dimension: 'country', value: 'Germany' }])
    const view = parseView(address, FALLBACK, true)
    expect(view.filters).toEqual([{ dimension: 'campaign', value: '3' }, { dimension: 'country', value: 'Germany' }, { dimension: 'tag', value: 'spring' }, { dimension: 'link', value: '4' }])
    expect(serialiseView(view).toString()).toBe('from=2026-10-30&to=2026-11-28&country=Germany&link=4&campaign=3&tag=spring')
    expect(filterQuery(view.filters)).toEqual({ campaign: '3', country: 'Germany', tag: 'spring', link: '4' })
    expect(chipLabel({ dimension: 'campaign', value: '3' }, () => 'Spring sale')).toBe('Campaign: Spring sale')
  })
})

describe('filter chips', () => {
  const germany = { dimension: 'country', value: 'Germany' } as const
  const firefox = { dimension: 'browser', value: 'Firefox' } as const

  it('adds a chip once, keeps several, and removes only the one asked', () => {
    let filters = addFilter([], germany)
    filters = addFilter(filters, firefox)
    expect(addFilter(filters, { ...germany })).toBe(filters)
    expect(filters).toEqual([germany, firefox])
    expect(removeFilter(filters, { dimension: 'country', value: 'Germany' })).toEqual([firefox])
    expect(removeFilter(filters, { dimension: 'browser', value: 'Germany' })).toEqual(filters)
  })

  it('takes at most 20 values of one dimension, as the API does', () => {
    let filters = addFilter([], firefox)
    for (let index = 0; index < 25; index += 1) filters = addFilter(filters, { dimension: 'referrer', value: `site-${index}.example` })
    expect(filters.filter((chip) => chip.dimension === 'referrer')).toHaveLength(20)
    expect(filters).toHaveLength(21)
  })

  it('names a chip by its dimension and its value as the page shows it', () => {
    expect(chipLabel(germany)).toBe('Country: Germany')
    expect(chipLabel({ dimension: 'language', value: 'fr' }, () => 'French (fr)')).toBe('Language: French (fr)')
    expect(chipLabel({ dimension: 'os', value: 'Windows' })).toBe('Operating system: Windows')
  })

  it('sends the values of one dimension as one comma-separated parameter', () => {
    expect(filterQuery([germany, firefox, { dimension: 'country', value: 'France' }])).toEqual({ country: 'Germany,France', browser: 'Firefox' })
  })
})

describe('the query of a view', () => {
  const plain: StatisticsView = { ...FALLBACK, granularity: 'day', compare: false, filters: [] }

  it('asks a plain view of a UTC workspace without the raw-click parameters (the aggregates answer it)', () => {
    expect(statisticsQuery(plain, 'UTC')).toEqual(FALLBACK)
  })

  it('asks with granularity when the workspace counts in another zone, or anything is filtered, bucketed or compared', () => {
    expect(statisticsQuery(plain, 'Europe/Berlin')).toEqual({ ...FALLBACK, granularity: 'day' })
    expect(statisticsQuery({ ...plain, filters: [{ dimension: 'device', value: 'mobile' }] }, 'UTC')).toEqual({ ...FALLBACK, device: 'mobile', granularity: 'day' })
    expect(statisticsQuery({ ...plain, granularity: 'week' }, 'UTC')).toEqual({ ...FALLBACK, granularity: 'week' })
    expect(statisticsQuery({ ...plain, compare: true }, 'UTC')).toEqual({ ...FALLBACK, granularity: 'day', compare: 'previous' })
  })
})

describe('figures', () => {
  it('words a change against the previous period', () => {
    expect(changeOf(5, 4)).toBe('+25%')
    expect(changeOf(3, 5)).toBe('−40%')
    expect(changeOf(2, 2)).toBe('no change')
    expect(changeOf(2, 0)).toBe('new')
    expect(changeOf(0, 3)).toBe('−100%')
    expect(changeOf(1001, 1000)).toBe('+<1%')
  })

  it('counts days in the workspace\'s time zone', () => {
    const late = new Date('2026-11-28T23:30:00Z')
    expect(todayIn('UTC', late)).toBe('2026-11-28')
    expect(todayIn('Europe/Berlin', late)).toBe('2026-11-29')
    expect(todayIn('America/Los_Angeles', new Date('2026-11-28T05:00:00Z'))).toBe('2026-11-27')
    expect(lastDaysIn(7, 'Europe/Berlin', late)).toEqual({ from: '2026-11-23', to: '2026-11-29' })
    expect(lastDaysIn(30, 'UTC', new Date('2026-03-01T12:00:00Z'))).toEqual({ from: '2026-01-31', to: '2026-03-01' })
  })
})

describe('days of a time zone as UTC bounds', () => {
  it('starts at the zone\'s midnight and ends a second before the next one, across clock changes', () => {
    expect(utcBoundsOfDays('2026-01-10', '2026-01-11', 'UTC')).toEqual({ from: '2026-01-10 00:00:00', to: '2026-01-11 23:59:59' })
    expect(utcBoundsOfDays('2026-01-10', '2026-01-10', 'Europe/Berlin')).toEqual({ from: '2026-01-09 23:00:00', to: '2026-01-10 22:59:59' })
    // Berlin moves to summer time on 2026-03-29: that day has 23 hours.
    expect(utcBoundsOfDays('2026-03-29', '2026-03-29', 'Europe/Berlin')).toEqual({ from: '2026-03-28 23:00:00', to: '2026-03-29 21:59:59' })
    expect(utcBoundsOfDays('2026-11-01', '2026-11-01', 'America/Los_Angeles')).toEqual({ from: '2026-11-01 07:00:00', to: '2026-11-02 07:59:59' })
    expect(utcBoundsOfDays('2026-06-01', '2026-06-30', 'Asia/Kathmandu')).toEqual({ from: '2026-05-31 18:15:00', to: '2026-06-30 18:14:59' })
    // A zone the browser does not know: UTC.
    expect(utcBoundsOfDays('2026-01-10', '2026-01-10', 'Not/AZone')).toEqual({ from: '2026-01-10 00:00:00', to: '2026-01-10 23:59:59' })
  })
})
