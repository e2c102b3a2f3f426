// UTC calendar days as clicks and statistics name them: `YYYY-MM-DD`.

/** Milliseconds in a UTC day (no leap seconds in JavaScript time). */
export const DAY_MS = 86_400_000

/** The UTC day of a time in milliseconds. */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10)
}

/** Midnight (UTC) of a day, in milliseconds. */
export function midnightOf(day: string): number {
  return Date.parse(`${day}T00:00:00Z`)
}

/** The day `days` days before `day`. */
export function daysBefore(day: string, days: number): string {
  return dayOf(midnightOf(day) - days * DAY_MS)
}
