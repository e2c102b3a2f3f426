// The statistics of one short link, QR code, campaign rotator or bio page over a range of days
// (default the last 30): daily clicks and uniques, the countries on a map and ranked, referrers,
// browsers, systems, devices, languages and social networks; all of it as a CSV. The range lives
// in the address (?from&to), so a view can be shared. Data: GET /api/{url|qr|campaign|bio}/{id}/stats.
import { lazy, Suspense, useState } from 'react'
import { useSearchParams } from 'react-router'
import { ClicksChart } from '../components/ClicksChart'
import { downloadText } from '../components/download'
import { formatCount, lastDays, utcDay } from '../components/format'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { statisticsCsv, TOP_LISTS, type RangeStatistics } from './statistics-csv'
import { useItemStatistics, type StatisticsItem } from './statistics-queries'

const WorldMap = lazy(() => import('./WorldMap'))

const PRESETS = [7, 30, 90, 365]
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/

function RankedList({ title, entries, total, noun = 'clicks' }: { title: string; entries: Array<[string, number]>; total: number; noun?: string }) {
  return (
    <section className="card stack ranked" aria-label={title}>
      <h2>{title}</h2>
      {entries.length === 0 ? <p className="muted small">No {noun} in this range.</p> : (
        <ol>
          {entries.slice(0, 10).map(([label, count]) => (
            <li key={label}>
              <span className="ranked-bar" style={{ width: `${Math.max(2, (count / Math.max(1, total)) * 100)}%` }} aria-hidden="true" />
              <span className="ranked-label">{label}</span>
              <span className="ranked-count">{formatCount(count)} <span className="muted small">{total > 0 ? `${Math.round((count / total) * 100)}%` : ''}</span></span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })

/** How a list's labels read: languages by name ("French (fr)"), device types capitalised. */
const LABELS: Partial<Record<string, (label: string) => string>> = {
  topLanguages: (code) => {
    try {
      const name = /^[a-z]{2,3}$/i.test(code) ? languageNames.of(code) : undefined
      return name ? `${name} (${code})` : code
    } catch {
      return code
    }
  },
  topDevices: (device) => device.charAt(0).toUpperCase() + device.slice(1),
}

function entriesOf(list: Record<string, string | number>, label: (text: string) => string = (text) => text): Array<[string, number]> {
  return Object.entries(list).map(([text, count]) => [label(text), Number(count)] as [string, number]).sort((a, b) => b[1] - a[1])
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
  const span = (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 + 1
  return span > 366 ? { to: 'Choose at most 366 days.' } : {}
}

export function ItemStatistics({ item, id, nouns = CLICKS }: { item: StatisticsItem; id: number; nouns?: VisitNouns }) {
  const [params, setParams] = useSearchParams()
  const fallback = lastDays(30)
  const from = DAY_PATTERN.test(params.get('from') ?? '') ? params.get('from')! : fallback.from
  const to = DAY_PATTERN.test(params.get('to') ?? '') ? params.get('to')! : fallback.to
  const [draft, setDraft] = useState({ from, to })
  const statistics = useItemStatistics(item, id, from, to)

  function show(next: { from: string; to: string }) {
    setDraft(next)
    setParams(new URLSearchParams(next))
  }

  // The range is checked before it is asked for; the server would refuse the same (decisions §6).
  const range = useCheckedSubmit<'from' | 'to'>({
    validate: () => rangeProblems(draft),
    send: async () => show(draft),
    fields: ['from', 'to'],
  })
  const rangeError = range.errors.from ?? range.errors.to ?? range.formError

  return (
    <>
      <form className="card toolbar range" onSubmit={range.submit} noValidate aria-label="Date range">
        <div className="presets" role="group" aria-label="Quick ranges">
          {PRESETS.map((days) => {
            const preset = lastDays(days)
            const active = preset.from === from && preset.to === to
            return <button key={days} type="button" className={active ? 'button small active' : 'button small ghost'} aria-pressed={active} onClick={() => { range.clearErrors(); show(preset) }}>{days === 365 ? '12 months' : `${days} days`}</button>
          })}
        </div>
        <div className="field">
          <label htmlFor="range-from">From</label>
          <input id="range-from" type="date" value={draft.from} max={utcDay(new Date())} aria-invalid={range.errors.from ? true : undefined} aria-describedby={range.errors.from ? 'range-error' : undefined} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="range-to">To</label>
          <input id="range-to" type="date" value={draft.to} max={utcDay(new Date())} aria-invalid={range.errors.to ? true : undefined} aria-describedby={range.errors.to ? 'range-error' : undefined} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </div>
        <button type="submit" className="button">Apply</button>
        {statistics.data && <button type="button" className="button ghost" onClick={() => downloadText(`linkwell-${item}-${id}-${from}-${to}.csv`, statisticsCsv(statistics.data))}>Export CSV</button>}
        {rangeError && <p className="field-error full" id="range-error" role="alert">{rangeError}</p>}
      </form>
      {statistics.isPending ? <Loading label={`Loading ${nouns.plural.toLowerCase()}…`} /> : statistics.isError ? <ErrorMessage error={statistics.error} onRetry={() => statistics.refetch()} /> : <StatisticsView statistics={statistics.data} nouns={nouns} />}
    </>
  )
}

function StatisticsView({ statistics, nouns }: { statistics: RangeStatistics; nouns: VisitNouns }) {
  const countries = entriesOf(statistics.topCountries)
  const social = Object.entries(statistics.socialCount).map(([network, count]) => [network[0]!.toUpperCase() + network.slice(1), count] as [string, number]).sort((a, b) => b[1] - a[1])
  return (
    <>
      <section className="kpis" aria-label="Totals for the range">
        <div className="card kpi"><span className="kpi-label">{nouns.plural}</span><strong className="kpi-value" data-testid="range-clicks">{formatCount(statistics.clicks)}</strong></div>
        <div className="card kpi"><span className="kpi-label">Unique {nouns.plural.toLowerCase()}</span><strong className="kpi-value">{formatCount(statistics.uniqueClicks)}</strong></div>
        <div className="card kpi"><span className="kpi-label">Countries</span><strong className="kpi-value">{formatCount(countries.filter(([name]) => name !== 'Unknown').length)}</strong></div>
      </section>
      <section className="card stack" aria-labelledby="daily-title">
        <h2 id="daily-title">{nouns.plural} per day</h2>
        <ClicksChart days={statistics.days} noun={nouns.plural} label={`${nouns.plural} and unique ${nouns.plural.toLowerCase()} per day from ${statistics.from} to ${statistics.to}`} />
      </section>
      {statistics.clicks === 0 ? (
        <div className="card"><EmptyState title={`No ${nouns.plural.toLowerCase()} in this range`}><p className="muted">{nouns.emptyHint}</p></EmptyState></div>
      ) : (
        <>
          <div className="map-grid">
            <section className="card stack" aria-labelledby="map-title">
              <h2 id="map-title">Countries</h2>
              <Suspense fallback={<Loading label="Loading the map…" />}>
                <WorldMap counts={Object.fromEntries(countries)} />
              </Suspense>
            </section>
            <RankedList title="Top countries" entries={countries} total={statistics.clicks} noun={nouns.plural.toLowerCase()} />
          </div>
          <div className="lists-grid">
            {TOP_LISTS.filter((list) => list.key !== 'topCountries').map((list) => (
              <RankedList key={list.key} title={list.title} entries={entriesOf(statistics[list.key], LABELS[list.key])} total={statistics.clicks} noun={nouns.plural.toLowerCase()} />
            ))}
            <RankedList title="Social networks" entries={social.filter(([, count]) => count > 0)} total={statistics.clicks} noun={nouns.plural.toLowerCase()} />
          </div>
        </>
      )}
    </>
  )
}
