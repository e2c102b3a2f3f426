// The statistics of one short link, QR code, campaign rotator or bio page for a view (issue 24):
// a range of days (default the last 30), by hour, day, week or month, beside the previous period
// or not, under filter chips added by clicking any row of a top list (or a country on the map).
// Clicks and uniques over time, the countries on a map and ranked, referrers, browsers, systems,
// devices, languages and social networks; the clicks of the last 60 minutes, live; all of it as a
// CSV. The whole view lives in the address (statistics-view.ts), so it can be shared.
// Data: GET /api/{url|qr|campaign|bio}/{id}/stats and …/stats/live; the workspace's time zone from
// GET /api/account/settings.
import { lazy, Suspense, useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { useAccountSettings } from '../account/account-queries'
import { ClicksChart } from '../components/ClicksChart'
import { downloadText } from '../components/download'
import { displayUrl, formatCount } from '../components/format'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { LiveCounter } from './LiveCounter'
import { bucketsOf, statisticsCsv, TOP_LISTS } from './statistics-csv'
import { useItemStatistics, type StatisticsScope, type TopLink, type ViewStatistics } from './statistics-queries'
import {
  addFilter, changeOf, chipLabel, daysOf, FILTER_DIMENSIONS, filterQuery, granularityAllowed, GRANULARITIES, hasFilter, lastDaysIn,
  MAX_HOURLY_DAYS, parseView, removeFilter, serialiseView, statisticsQuery, todayIn,
  type FilterChip, type FilterDimension, type Granularity, type StatisticsView, type TopListKey,
} from './statistics-view'
import './statistics.css'

const WorldMap = lazy(() => import('./WorldMap'))

const PRESETS = [7, 30, 90, 365]
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/
const GRANULARITY_NAMES: Record<Granularity, string> = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' }

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })

/** How a dimension's values read: languages by name ("French (fr)"), device types capitalised. */
const LABELS: Partial<Record<FilterDimension, (label: string) => string>> = {
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

const DIMENSION_OF_LIST = Object.fromEntries(FILTER_DIMENSIONS.map((dimension) => [dimension.list, dimension.key])) as Record<TopListKey, FilterDimension>

interface RankedEntry {
  /** The value as the API names it (and filters by it). */
  value: string
  count: number
  previous?: number
}

function entriesOf(list: Record<string, string | number>, previous?: Record<string, string | number>): RankedEntry[] {
  return Object.entries(list)
    .map(([value, count]) => ({ value, count: Number(count), ...(previous ? { previous: Number(previous[value] ?? 0) } : {}) }))
    .sort((a, b) => b.count - a.count)
}

function RankedList({ title, entries, total, noun, dimension, filters, onToggle }: {
  title: string
  entries: RankedEntry[]
  total: number
  noun: string
  /** Rows of a dimension are buttons that add (or remove) a filter chip. */
  dimension?: FilterDimension
  filters: FilterChip[]
  onToggle: (chip: FilterChip) => void
}) {
  const label = (value: string) => (dimension ? displayValue({ dimension, value }) : value)
  return (
    <section className="card stack ranked" aria-label={title}>
      <h2>{title}</h2>
      {entries.length === 0 ? <p className="muted small">No {noun} in this range.</p> : (
        <ol>
          {entries.slice(0, 10).map((entry) => {
            const chip = dimension ? { dimension, value: entry.value } : undefined
            const active = chip ? hasFilter(filters, chip) : false
            const content = (
              <>
                <span className="ranked-bar" style={{ width: `${Math.max(2, (entry.count / Math.max(1, total)) * 100)}%` }} aria-hidden="true" />
                <span className="ranked-label">{label(entry.value)}</span>
                <span className="ranked-count">
                  {formatCount(entry.count)} <span className="muted small">{total > 0 ? `${Math.round((entry.count / total) * 100)}%` : ''}</span>
                  {entry.previous !== undefined && <span className="ranked-change muted small" title={`Previous period: ${formatCount(entry.previous)}`}>{changeOf(entry.count, entry.previous)}</span>}
                </span>
              </>
            )
            return (
              <li key={entry.value} className={active ? 'active' : undefined}>
                {chip ? (
                  <button type="button" className="ranked-row" aria-pressed={active} title={active ? 'Remove this filter' : 'Show only these clicks'} onClick={() => onToggle(chip)}>{content}</button>
                ) : content}
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}

/** What a visit is called on the page: a link's clicks, a QR code's scans. */
export interface VisitNouns {
  /** "Clicks", "Scans" */
  plural: string
  /** Shown when the range has none: what to do to get some. */
  emptyHint: string
}

const CLICKS: VisitNouns = { plural: 'Clicks', emptyHint: 'Share the short link, or choose a longer range. New clicks appear here within seconds.' }

/** Why a range cannot be shown: both days, in order, at most 366 of them. */
export function rangeProblems(range: { from: string; to: string }): Partial<Record<'from' | 'to', string>> {
  if (!DAY_PATTERN.test(range.from)) return { from: 'Choose both days.' }
  if (!DAY_PATTERN.test(range.to)) return { to: 'Choose both days.' }
  if (range.from > range.to) return { to: 'The first day must come before the last.' }
  return daysOf(range) > 366 ? { to: 'Choose at most 366 days.' } : {}
}

/** `item` 'workspace': all the workspace's links (GET /api/stats), with their top links; `id` is then unused. */
export function ItemStatistics({ item, id = 0, nouns = CLICKS }: { item: StatisticsScope; id?: number; nouns?: VisitNouns }) {
  const [params, setParams] = useSearchParams()
  const settings = useAccountSettings()
  // A workspace whose settings cannot be read counts in UTC, as the server does until a zone is set.
  const timeZone = settings.data?.timezone ?? 'UTC'
  const zoneKnown = !settings.isPending
  const today = todayIn(timeZone)
  const view = parseView(params, lastDaysIn(30, timeZone))
  const [draft, setDraft] = useState({ from: view.from, to: view.to })
  // The address changes the range too (back, a shared view, the zone's today once known).
  useEffect(() => setDraft({ from: view.from, to: view.to }), [view.from, view.to])
  // The workspace's top lists come from the raw clicks only (ADR 022): its page always asks there.
  const query = statisticsQuery(view, timeZone, item === 'workspace')
  const statistics = useItemStatistics(item, id, query, today, zoneKnown)

  function show(next: StatisticsView) {
    // An hourly view of a range over 31 days reads by day (the API answers hours up to 31 days).
    const granularity = granularityAllowed(next.granularity, next) ? next.granularity : 'day'
    setParams(serialiseView({ ...next, granularity }))
  }
  function showRange(range: { from: string; to: string }) {
    setDraft(range)
    show({ ...view, ...range })
  }
  function toggle(chip: FilterChip) {
    show({ ...view, filters: hasFilter(view.filters, chip) ? removeFilter(view.filters, chip) : addFilter(view.filters, chip) })
  }

  // The range is checked before it is asked for; the server would refuse the same (decisions §6).
  const range = useCheckedSubmit<'from' | 'to'>({
    validate: () => rangeProblems(draft),
    send: async () => showRange(draft),
    fields: ['from', 'to'],
  })
  const rangeError = range.errors.from ?? range.errors.to ?? range.formError
  const hourly = daysOf(view) <= MAX_HOURLY_DAYS
  const answered = statistics.data

  return (
    <>
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
        <div className="view-options full">
          <div className="presets" role="group" aria-label="Granularity">
            {GRANULARITIES.map((granularity) => {
              const allowed = granularity !== 'hour' || hourly
              const active = view.granularity === granularity
              return (
                <button key={granularity} type="button" className={active ? 'button small active' : 'button small ghost'} aria-pressed={active} disabled={!allowed}
                  title={allowed ? undefined : `Hours for ranges of at most ${MAX_HOURLY_DAYS} days`} onClick={() => show({ ...view, granularity })}>
                  {GRANULARITY_NAMES[granularity]}
                </button>
              )
            })}
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={view.compare} onChange={(event) => show({ ...view, compare: event.target.checked })} />
            Compare with previous period
          </label>
          {answered && (
            <button type="button" className="button ghost" onClick={() => downloadText(`linkwell-${item === 'workspace' ? 'workspace' : `${item}-${id}`}-${view.from}-${view.to}.csv`, statisticsCsv(answered, view, displayValue))}>Export CSV</button>
          )}
        </div>
      </form>
      <p className="muted small time-zone-note" data-testid="time-zone-note">
        {view.granularity === 'hour' ? 'Hours' : 'Days'} are in <strong>{answered?.timeZone ?? (query.granularity ? timeZone : 'UTC')}</strong>, the workspace’s time zone. <Link to="/account#time-zone">Change it</Link>
      </p>
      <LiveCounter item={item} id={id} filters={filterQuery(view.filters)} noun={nouns.plural} />
      {view.filters.length > 0 && (
        <section className="filter-chips" aria-label="Filters">
          <span className="muted small">Showing only:</span>
          <ul>
            {view.filters.map((chip) => (
              <li key={`${chip.dimension}:${chip.value}`} className="filter-chip">
                <span>{chipLabel(chip, displayValue)}</span>
                <button type="button" aria-label={`Remove filter ${chipLabel(chip, displayValue)}`} onClick={() => show({ ...view, filters: removeFilter(view.filters, chip) })}>×</button>
              </li>
            ))}
          </ul>
          {view.filters.length > 1 && <button type="button" className="button small ghost" onClick={() => show({ ...view, filters: [] })}>Clear all filters</button>}
        </section>
      )}
      {!zoneKnown || statistics.isPending ? <Loading label={`Loading ${nouns.plural.toLowerCase()}…`} />
        : statistics.isError ? <ErrorMessage error={statistics.error} onRetry={() => statistics.refetch()} />
        : <StatisticsView statistics={statistics.data} view={view} nouns={nouns} updating={statistics.isPlaceholderData} onToggle={toggle} />}
    </>
  )
}

function Kpi({ label, value, previous, testId }: { label: string; value: number; previous?: number; testId?: string }) {
  return (
    <div className="card kpi">
      <span className="kpi-label">{label}</span>
      <strong className="kpi-value" data-testid={testId}>{formatCount(value)}</strong>
      {previous !== undefined && (
        <span className="kpi-change small" data-testid={testId ? `${testId}-change` : undefined}>
          <span className={value > previous ? 'up' : value < previous ? 'down' : undefined}>{changeOf(value, previous)}</span> <span className="muted">vs {formatCount(previous)} before</span>
        </span>
      )}
    </div>
  )
}

/** The workspace's most clicked links of the view; each opens its own statistics under the same view. */
function TopLinks({ links, previous, view }: { links: TopLink[]; previous?: TopLink[]; view: StatisticsView }) {
  const search = serialiseView(view).toString()
  return (
    <section className="card stack ranked" aria-label="Top links">
      <h2>Top links</h2>
      {links.length === 0 ? <p className="muted small">No clicks in this range.</p> : (
        <ol className="top-links">
          {links.map((link, index) => (
            <li key={link.id}>
              <Link to={`/links/${link.id}/analytics?${search}`}>
                <span className="top-link-name">{displayUrl(link.shorturl)}</span>
                <span className="muted small ellipsis">{link.title || displayUrl(link.longurl)}</span>
              </Link>
              <span className="top-link-count">
                <strong>{formatCount(link.clicks)}</strong> <span className="muted small">{link.clicks === 1 ? 'click' : 'clicks'}</span>
                {previous?.[index] && <span className="ranked-change muted small" title={`Previous period: ${formatCount(previous[index].clicks)}`}>{changeOf(link.clicks, previous[index].clicks)}</span>}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function StatisticsView({ statistics, view, nouns, updating, onToggle }: { statistics: ViewStatistics; view: StatisticsView; nouns: VisitNouns; updating: boolean; onToggle: (chip: FilterChip) => void }) {
  const previous = view.compare ? statistics.previous : undefined
  const countries = entriesOf(statistics.topCountries, previous?.topCountries)
  const social = Object.entries(statistics.socialCount).map(([network, count]) => ({ value: network[0]!.toUpperCase() + network.slice(1), count }) as RankedEntry).sort((a, b) => b.count - a.count)
  const noun = nouns.plural.toLowerCase()
  const granularity = (statistics.granularity ?? 'day') as Granularity
  const per = GRANULARITY_NAMES[granularity].toLowerCase()
  const countryCount = (list: Record<string, string>) => Object.keys(list).filter((name) => name !== 'Unknown').length
  return (
    <div className="statistics-view stack" aria-busy={updating}>
      <section className="kpis" aria-label="Totals for the range">
        <Kpi label={nouns.plural} value={statistics.clicks} previous={previous?.clicks} testId="range-clicks" />
        <Kpi label={`Unique ${noun}`} value={statistics.uniqueClicks} previous={previous?.uniqueClicks} testId="range-unique" />
        <Kpi label="Countries" value={countryCount(statistics.topCountries)} />
      </section>
      {previous && <p className="muted small compare-note">Compared with {previous.from} to {previous.to}, the {daysOf(view)} days before.</p>}
      <section className="card stack" aria-labelledby="daily-title">
        <h2 id="daily-title">{nouns.plural} per {per}</h2>
        <ClicksChart
          days={bucketsOf(statistics)}
          bucket={granularity}
          previous={previous ? bucketsOf(previous) : undefined}
          noun={nouns.plural}
          label={`${nouns.plural} and unique ${noun} per ${per} from ${statistics.from} to ${statistics.to}${previous ? `, with the previous period from ${previous.from} to ${previous.to}` : ''}`}
        />
      </section>
      {statistics.clicks === 0 ? (
        <div className="card">
          <EmptyState title={`No ${noun} in this range${view.filters.length > 0 ? ' under these filters' : ''}`}>
            <p className="muted">{view.filters.length > 0 ? 'Remove a filter above, or choose a longer range.' : nouns.emptyHint}</p>
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="map-grid">
            <section className="card stack" aria-labelledby="map-title">
              <h2 id="map-title">Countries</h2>
              <Suspense fallback={<Loading label="Loading the map…" />}>
                <WorldMap counts={Object.fromEntries(countries.map((entry) => [entry.value, entry.count]))} onSelect={(country) => onToggle({ dimension: 'country', value: country })} />
              </Suspense>
            </section>
            <RankedList title="Top countries" entries={countries} total={statistics.clicks} noun={noun} dimension="country" filters={view.filters} onToggle={onToggle} />
          </div>
          {statistics.topLinks && <TopLinks links={statistics.topLinks} previous={(previous as { topLinks?: TopLink[] } | undefined)?.topLinks} view={view} />}
          <div className="lists-grid">
            {TOP_LISTS.filter((list) => list.key !== 'topCountries').map((list) => (
              <RankedList key={list.key} title={list.title} entries={entriesOf(statistics[list.key], previous?.[list.key])} total={statistics.clicks} noun={noun} dimension={DIMENSION_OF_LIST[list.key]} filters={view.filters} onToggle={onToggle} />
            ))}
            <RankedList title="Social networks" entries={social.filter((entry) => entry.count > 0)} total={statistics.clicks} noun={noun} filters={view.filters} onToggle={onToggle} />
          </div>
        </>
      )}
    </div>
  )
}
