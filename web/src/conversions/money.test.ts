// Conversions' figures as a marketer reads them: money in the currency's own minor digits, one
// line per currency, rates of clicks, and times to lead or sale.
import { describe, expect, it } from 'vitest'
import { formatDuration, formatMoney, formatRate, minorDigitsOf, revenueLines } from './money'

describe('money in minor units', () => {
  it('knows each currency\'s digits', () => {
    expect(minorDigitsOf('EUR')).toBe(2)
    expect(minorDigitsOf('JPY')).toBe(0)
    expect(minorDigitsOf('BHD')).toBe(3)
  })

  it('formats an amount in its currency', () => {
    expect(formatMoney(4900, 'EUR')).toBe('€49.00')
    expect(formatMoney(500, 'JPY')).toBe('¥500')
    expect(formatMoney(1234, 'BHD')).toBe('BHD\u00a01.234')
    expect(formatMoney(-1500, 'USD')).toBe('-$15.00')
  })

  it('gives one line per currency, by code, and none for nothing', () => {
    expect(revenueLines({ JPY: 500, EUR: 4900, USD: 0 })).toEqual(['€49.00', '¥500'])
    expect(revenueLines({ USD: 100, EUR: 1 })).toEqual(['€0.01', '$1.00'])
    expect(revenueLines({})).toEqual([])
  })
})

describe('rates and times', () => {
  it('reads a fraction of clicks as a percentage', () => {
    expect(formatRate(1)).toBe('100%')
    expect(formatRate(0.5)).toBe('50%')
    expect(formatRate(0.0123)).toBe('1.2%')
    expect(formatRate(0)).toBe('0%')
    expect(formatRate(null)).toBe('—')
  })

  it('reads seconds as a person says them', () => {
    expect(formatDuration(42)).toBe('42 s')
    expect(formatDuration(12 * 60)).toBe('12 min')
    expect(formatDuration(3 * 3600 + 20 * 60)).toBe('3 h 20 min')
    expect(formatDuration(5 * 86400)).toBe('5 days')
  })
})
