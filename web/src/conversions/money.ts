// How conversions' figures read: amounts are whole minor units of their currency (issue 39: cents
// for EUR, yen for JPY, fils for BHD), shown in the currency's own digits as the browser's ICU
// knows them; revenue is one amount per currency (never added across currencies); rates are
// fractions of clicks; times are seconds.

const digitsOfCurrency = new Map<string, number>()

/** The digits after the decimal point of a currency's minor unit: 2 for EUR, 0 for JPY, 3 for BHD. */
export function minorDigitsOf(currency: string): number {
  let digits = digitsOfCurrency.get(currency)
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    } catch {
      digits = 2
    }
    digitsOfCurrency.set(currency, digits)
  }
  return digits
}

/** An amount in minor units as money: formatMoney(4900, 'EUR') is "€49.00", formatMoney(500, 'JPY') "¥500". */
export function formatMoney(minor: number, currency: string): string {
  const digits = minorDigitsOf(currency)
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(minor / 10 ** digits)
  } catch {
    return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`
  }
}

/** Revenue per currency by currency code (amounts of two currencies do not compare), each formatted; none for no revenue. */
export function revenueLines(revenue: Record<string, number>): string[] {
  return Object.entries(revenue)
    .filter(([, minor]) => minor !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, minor]) => formatMoney(minor, currency))
}

/** A fraction as a percentage: 0.1234 is "12.3%", 0 "0%", null (no clicks) "—". */
export function formatRate(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '—'
  if (fraction === 0) return '0%'
  return `${new Intl.NumberFormat('en', { maximumFractionDigits: fraction < 0.1 ? 1 : 0 }).format(fraction * 100)}%`
}

/** Seconds as a person says them: "45 s", "12 min", "3 h 20 min", "4 days". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
  const days = Math.round(hours / 24)
  return `${days} days`
}
