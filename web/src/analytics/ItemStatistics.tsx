// The statistics of one short link, QR code, campaign rotator or bio page for a view (issue 24):
// a range of days (default the last 30), by hour, day, week or month, beside the previous period
// or not, under filter chips added by clicking any row of a top list (or a country on the map).
// Clicks and uniques over time, the countries on a map and ranked, referrers, browsers, systems,
// devices, languages and social networks; the clicks of the last 60 minutes, live; all of it as a
// CSV. The whole view lives in the address (statistics-view.ts), so it can be shared.
// Data: GET /api/{url|qr|campaign|bio}/{id}/stats and …/stats/live; the workspace's time zone from
// GET /api/account/settings.
import { lazy, Suspense } from 'react'
import { Link } from 'react-router'
import { ClicksChart } from '../components/ClicksChart'
import { downloadText } from '../components/download'
import { displayUrl, formatCount } from '../components/format'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { LiveCounter } from './LiveCounter'
import { bucketsOf, statisticsCsv, TOP_LISTS } from './statistics-csv'
import { useItemStatistics, type StatisticsScope, type TopLink, type ViewStatistics } from './statistics-queries'
import {
  changeOf, daysOf, FILTER_DIMENSIONS, filterQuery, hasFilter, serialiseView, statisticsQuery,
  type FilterChip, type FilterDimension, type Granularity, type StatisticsView, type TopListKey,
} from './statistics-view'
import { displayValue, FilterChips, GRANULARITY_NAMES, RangeForm, useStatisticsView } from './ViewControls'
import { formatRate, revenueLines } from '../conversions/money'

export { displayValue, rangeProblems } from './ViewControls'

const WorldMap = lazy(() => import('./WorldMap'))

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

/** `item` 'workspace': all the workspace's links (GET /api/stats), with their top links; `id` is then unused. */
/**
 * `conversions`: the item tracks conversions (a link with `trackconversions`): its leads, sales and
 * revenue show beside the clicks; without it they show only when the range has any.
 */
export function ItemStatistics({ item, id = 0, nouns = CLICKS, conversions = false }: { item: StatisticsScope; id?: number; nouns?: VisitNouns; conversions?: boolean }) {
  const { view, show, toggle, timeZone, today, zoneKnown } = useStatisticsView()
  // The workspace's top lists come from the raw clicks only (ADR 022): its page always asks there.
  const query = statisticsQuery(view, timeZone, item === 'workspace')
  const statistics = useItemStatistics(item, id, query, today, zoneKnown)
  const answered = statistics.data

  return (
    <>
      <RangeForm view={view} today={today} timeZone={timeZone} onShow={show}>
        {answered && (
          <button type="button" className="button ghost" onClick={() => downloadText(`linkwell-${item === 'workspace' ? 'workspace' : `${item}-${id}`}-${view.from}-${view.to}.csv`, statisticsCsv(answered, view, displayValue))}>Export CSV</button>
        )}
      </RangeForm>
      <p className="muted small time-zone-note" data-testid="time-zone-note">
        {view.granularity === 'hour' ? 'Hours' : 'Days'} are in <strong>{answered?.timeZone ?? (query.granularity ? timeZone : 'UTC')}</strong>, the workspace’s time zone. <Link to="/account#time-zone">Change it</Link>
      </p>
      <LiveCounter item={item} id={id} filters={filterQuery(view.filters)} noun={nouns.plural} />
      <FilterChips view={view} onShow={show} />
      {!zoneKnown || statistics.isPending ? <Loading label={`Loading ${nouns.plural.toLowerCase()}…`} />
        : statistics.isError ? <ErrorMessage error={statistics.error} onRetry={() => statistics.refetch()} />
        : <StatisticsView statistics={statistics.data} view={view} nouns={nouns} updating={statistics.isPlaceholderData} onToggle={toggle} conversionsLink={item === 'url' ? `/conversions?${serialiseView({ ...view, granularity: 'day', compare: false, filters: [...view.filters, { dimension: 'link', value: String(id) }] })}` : undefined} tracksConversions={conversions} />}
    </>
  )
}

function Kpi({ label, value, previous, testId, note }: { label: string; value: number; previous?: number; testId?: string; note?: string }) {
  return (
    <div className="card kpi">
      <span className="kpi-label">{label}</span>
      <strong className="kpi-value" data-testid={testId}>{formatCount(value)}</strong>
      {note && <span className="small muted">{note}</span>}
      {previous !== undefined && (
        <span className="kpi-change small" data-testid={testId ? `${testId}-change` : undefined}>
          <span className={value > previous ? 'up' : value < previous ? 'down' : undefined}>{changeOf(value, previous)}</span> <span className="muted">vs {formatCount(previous)} before</span>
        </span>
      )}
    </div>
  )
}

/** Leads, sales (each with its rate of clicks) and revenue per currency of the view, beside its clicks. */
function ConversionFigures({ statistics, previous, link }: { statistics: ViewStatistics; previous?: ViewStatistics['previous']; link?: string }) {
  const revenue = revenueLines(statistics.revenue)
  return (
    <section className="kpis" aria-label="Conversions for the range">
      <Kpi label="Leads" note={`${formatRate(statistics.conversionRates.leads)} of clicks`} value={statistics.leads} previous={previous?.leads} testId="range-leads" />
      <Kpi label="Sales" note={`${formatRate(statistics.conversionRates.sales)} of clicks`} value={statistics.sales} previous={previous?.sales} testId="range-sales" />
      <div className="card kpi">
        <span className="kpi-label">Revenue</span>
        <span className="revenue-lines" data-testid="range-revenue">{revenue.length === 0 ? <strong className="kpi-value">—</strong> : revenue.map((line) => <strong key={line} className="kpi-value">{line}</strong>)}</span>
        {link && <Link to={link} className="small">Sales and sign-ups</Link>}
      </div>
    </section>
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

function StatisticsView({ statistics, view, nouns, updating, onToggle, tracksConversions, conversionsLink }: {
  statistics: ViewStatistics
  view: StatisticsView
  nouns: VisitNouns
  updating: boolean
  onToggle: (chip: FilterChip) => void
  tracksConversions: boolean
  /** Where the conversions page shows this item's (a link's). */
  conversionsLink?: string
}) {
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
      {statistics.leads !== undefined && (tracksConversions || statistics.leads > 0 || statistics.sales > 0) && <ConversionFigures statistics={statistics} previous={previous} link={conversionsLink} />}
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
