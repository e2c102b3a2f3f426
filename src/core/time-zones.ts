// IANA time zones as statistics need them (issue 24): which names exist, a zone's offset from UTC
// at a moment, and a zone's wall-clock time back to UTC. Wall-clock times are handled as "local
// milliseconds": the UTC milliseconds of the same calendar reading (Date.UTC of the local date and
// time), so day, hour, week and month arithmetic is plain UTC arithmetic on them. Nothing here
// asks the database: both SQLite and PostgreSQL get the same UTC bounds.

const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    })
    formatters.set(zone, formatter)
  }
  return formatter
}

/** The zone's canonical name (`europe/berlin` → `Europe/Berlin`), or undefined when no such zone exists. */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return undefined
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/** Offset of `zone` from UTC at `utcMs`, in milliseconds (Europe/Berlin in summer: +7,200,000). */
export function offsetAt(zone: string, utcMs: number): number {
  // The default zone, asked for often: no formatting needed.
  if (zone === 'UTC') return 0
  const parts: Record<string, number> = {}
  for (const part of formatterOf(zone).formatToParts(new Date(utcMs))) if (part.type !== 'literal') parts[part.type] = Number(part.value)
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
  return local - Math.floor(utcMs / 1000) * 1000
}

/** The UTC moment at which `zone`'s clocks read `localMs`; a reading skipped by a DST jump maps to just after it. */
export function utcOfLocal(zone: string, localMs: number): number {
  const first = localMs - offsetAt(zone, localMs)
  const second = localMs - offsetAt(zone, first)
  return offsetAt(zone, second) === localMs - second ? second : Math.max(first, second)
}

/**
 * Offsets of a zone over a UTC range, looked up once per UTC day and per hour only on days where
 * the offset changes (twice a year at most in zones with DST): converts many moments cheaply.
 */
export function createOffsetLookup(zone: string): (utcMs: number) => number {
  const byDay = new Map<number, number | Map<number, number>>()
  return (utcMs) => {
    const day = Math.floor(utcMs / DAY_MS) * DAY_MS
    let known = byDay.get(day)
    if (known === undefined) {
      const start = offsetAt(zone, day)
      known = start === offsetAt(zone, day + DAY_MS - 1) ? start : new Map()
      byDay.set(day, known)
    }
    if (typeof known === 'number') return known
    // A day with a change: per quarter hour (every zone's offset is whole quarter hours today).
    const quarter = Math.floor(utcMs / (HOUR_MS / 4)) * (HOUR_MS / 4)
    let offset = known.get(quarter)
    if (offset === undefined) {
      offset = offsetAt(zone, quarter)
      known.set(quarter, offset)
    }
    return offset
  }
}
