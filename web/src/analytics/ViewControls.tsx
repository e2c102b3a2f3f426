// What every statistics page shares (issue 24, and the conversions page of issue 39): the view
// read from the address (useStatisticsView), the date range form with its quick ranges,
// granularity and comparison (RangeForm), and the filter chips with their remove buttons
// (FilterChips). A page puts its own figures under them.
import { useEffect, useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import { useAccountSettings } from '../account/account-queries'
import { useCheckedSubmit } from '../components/use-checked-submit'
import {
  addFilter, chipLabel, daysOf, granularityAllowed, GRANULARITIES, hasFilter, lastDaysIn, MAX_HOURLY_DAYS, parseView, removeFilter, serialiseView, todayIn,
  type FilterChip, type Granularity, type StatisticsView, type ViewDimension,
} from './statistics-view'
import './statistics.css'

const PRESETS = [7, 30, 90, 365]
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/
export const GRANULARITY_NAMES: Record<Granularity, string> = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' }

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })

/** How a dimension's values read: languages by name ("French (fr)"), device types capitalised. */
const LABELS: Partial<Record<ViewDimension, (label: string) => string>> = {
  language: (code) => {
    try {
      const name = /^[a-z]{2,3}$/i.test(code) ? languageNames.of(code) : undefined
      return name ? `${name} (${code})` : code
    } catch {
      return code
    }
  },
  device: (device) => device.charAt(0).toUpperCase() + device.slice(1),
}

/** A chip's value as a person reads it. */
export function displayValue(chip: FilterChip): string {
  return LABELS[chip.dimension]?.(chip.value) ?? chip.value
}

/** Why a range cannot be shown: both days, in order, at most 366 of them. */
export function rangeProblems(range: { from: string; to: string }): Partial<Record<'from' | 'to', string>> {
  if (!DAY_PATTERN.test(range.from)) return { from: 'Choose both days.' }
  if (!DAY_PATTERN.test(range.to)) return { to: 'Choose both days.' }
  if (range.from > range.to) return { to: 'The first day must come before the last.' }
  return daysOf(range) > 366 ? { to: 'Choose at most 366 days.' } : {}
}

/**
 * The view the address says (the last 30 days in the workspace's time zone unless it says
 * otherwise), and the ways to change it: each change is a new address. `workspace`: the
 * workspace's chips (link, campaign, channel, tag) are read too.
 */
export function useStatisticsView(workspace = false) {
  const [params, setParams] = useSearchParams()
  const settings = useAccountSettings()
  // A workspace whose settings cannot be read counts in UTC, as the server does until a zone is set.
  const timeZone = settings.data?.timezone ?? 'UTC'
  const view = parseView(params, lastDaysIn(30, timeZone), workspace)
  function show(next: StatisticsView) {
    // An hourly view of a range over 31 days reads by day (the API answers hours up to 31 days).
    const granularity = granularityAllowed(next.granularity, next) ? next.granularity : 'day'
    setParams(serialiseView({ ...next, granularity }))
  }
  function toggle(chip: FilterChip) {
    show({ ...view, filters: hasFilter(view.filters, chip) ? removeFilter(view.filters, chip) : addFilter(view.filters, chip) })
  }
  return { view, show, toggle, timeZone, today: todayIn(timeZone), zoneKnown: !settings.isPending }
}

/**
 * The date range (quick ranges, two days checked before they are asked for: the server would
 * refuse the same, decisions §6) and, when `options` says so, the granularity and the comparison;
 * `children` sit beside them (an export button).
 */
export function RangeForm({ view, today, timeZone, onShow, options = { granularity: true, compare: true }, children }: {
  view: StatisticsView
  today: string
  timeZone: string
  onShow: (view: StatisticsView) => void
  options?: { granularity: boolean; compare: boolean }
  children?: ReactNode
}) {
  const [draft, setDraft] = useState({ from: view.from, to: view.to })
  // The address changes the range too (back, a shared view, the zone's today once known).
  useEffect(() => setDraft({ from: view.from, to: view.to }), [view.from, view.to])
  function showRange(range: { from: string; to: string }) {
    setDraft(range)
    onShow({ ...view, ...range })
  }
  const range = useCheckedSubmit<'from' | 'to'>({
    validate: () => rangeProblems(draft),
    send: async () => showRange(draft),
    fields: ['from', 'to'],
  })
  const rangeError = range.errors.from ?? range.errors.to ?? range.formError
  const hourly = daysOf(view) <= MAX_HOURLY_DAYS
  const hasOptions = options.granularity || options.compare || children

  return (
    <form className="card toolbar range" onSubmit={range.submit} noValidate aria-label="Date range">
      <div className="presets" role="group" aria-label="Quick ranges">
        {PRESETS.map((days) => {
          const preset = lastDaysIn(days, timeZone)
          const active = preset.from === view.from && preset.to === view.to
          return <button key={days} type="button" className={active ? 'button small active' : 'button small ghost'} aria-pressed={active} onClick={() => { range.clearErrors(); showRange(preset) }}>{days === 365 ? '12 months' : `${days} days`}</button>
        })}
      </div>
      <div className="field">
        <label htmlFor="range-from">From</label>
        <input id="range-from" type="date" value={draft.from} max={today} aria-invalid={range.errors.from ? true : undefined} aria-describedby={range.errors.from ? 'range-error' : undefined} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="range-to">To</label>
        <input id="range-to" type="date" value={draft.to} max={today} aria-invalid={range.errors.to ? true : undefined} aria-describedby={range.errors.to ? 'range-error' : undefined} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
      </div>
      <button type="submit" className="button">Apply</button>
      {rangeError && <p className="field-error full" id="range-error" role="alert">{rangeError}</p>}
      {hasOptions && (
        <div className="view-options full">
          {options.granularity && (
            <div className="presets" role="group" aria-label="Granularity">
              {GRANULARITIES.map((granularity) => {
                const allowed = granularity !== 'hour' || hourly
                const active = view.granularity === granularity
                return (
                  <button key={granularity} type="button" className={active ? 'button small active' : 'button small ghost'} aria-pressed={active} disabled={!allowed}
                    title={allowed ? undefined : `Hours for ranges of at most ${MAX_HOURLY_DAYS} days`} onClick={() => onShow({ ...view, granularity })}>
                    {GRANULARITY_NAMES[granularity]}
                  </button>
                )
              })}
            </div>
          )}
          {options.compare && (
            <label className="checkbox">
              <input type="checkbox" checked={view.compare} onChange={(event) => onShow({ ...view, compare: event.target.checked })} />
              Compare with previous period
            </label>
          )}
          {children}
        </div>
      )}
    </form>
  )
}

/** The view's chips, each with its remove button, and "Clear all filters" for two or more; nothing without chips. */
export function FilterChips({ view, onShow, display = displayValue }: { view: StatisticsView; onShow: (view: StatisticsView) => void; display?: (chip: FilterChip) => string }) {
  if (view.filters.length === 0) return null
  return (
    <section className="filter-chips" aria-label="Filters">
      <span className="muted small">Showing only:</span>
      <ul>
        {view.filters.map((chip) => (
          <li key={`${chip.dimension}:${chip.value}`} className="filter-chip">
            <span>{chipLabel(chip, display)}</span>
            <button type="button" aria-label={`Remove filter ${chipLabel(chip, display)}`} onClick={() => onShow({ ...view, filters: removeFilter(view.filters, chip) })}>×</button>
          </li>
        ))}
      </ul>
      {view.filters.length > 1 && <button type="button" className="button small ghost" onClick={() => onShow({ ...view, filters: [] })}>Clear all filters</button>}
    </section>
  )
}
