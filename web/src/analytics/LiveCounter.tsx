// The live counter of a statistics page: clicks of the last 60 minutes under the page's filters,
// with a bar per minute, asked again every 5 s (GET …/stats/live).
import { formatCount } from '../components/format'
import { LIVE_INTERVAL_MS, useLiveStatistics, type StatisticsItem } from './statistics-queries'
import type { FilterDimension } from './statistics-view'

const WIDTH = 180
const HEIGHT = 32

/** The 60 minutes as bars, the current one last. */
export function Sparkline({ minutes }: { minutes: Array<{ minute: string; clicks: number }> }) {
  const max = Math.max(1, ...minutes.map((entry) => entry.clicks))
  const step = WIDTH / Math.max(1, minutes.length)
  return (
    <svg className="sparkline" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} aria-hidden="true" focusable="false">
      <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} stroke="#e3e6ee" />
      {minutes.map((entry, index) => entry.clicks > 0 && (
        <rect key={entry.minute} x={index * step + 0.5} width={Math.max(1, step - 1)} y={HEIGHT - Math.max(2, (entry.clicks / max) * HEIGHT)} height={Math.max(2, (entry.clicks / max) * HEIGHT)} rx={1} fill="#4f46e5" />
      ))}
    </svg>
  )
}

export function LiveCounter({ item, id = 0, filters, noun = 'Clicks' }: { item: StatisticsItem | 'workspace'; id?: number; filters: Partial<Record<FilterDimension, string>>; noun?: string }) {
  const live = useLiveStatistics(item, id, filters)
  const busiest = live.data?.minutes.reduce<{ minute: string; clicks: number } | undefined>((best, entry) => (!best || entry.clicks > best.clicks ? entry : best), undefined)
  return (
    <section className="card live-counter" aria-labelledby={`live-title-${item}`}>
      <div className="live-figure">
        <h2 id={`live-title-${item}`} className="kpi-label"><span className="live-dot" aria-hidden="true" /> Live · last 60 minutes</h2>
        {live.isError ? (
          <p className="small">Could not load the live count. <button type="button" className="button small ghost" onClick={() => live.refetch()}>Retry</button></p>
        ) : (
          <p className="live-value">
            <strong data-testid="live-clicks">{live.data ? formatCount(live.data.clicks) : '…'}</strong> <span className="muted small">{noun.toLowerCase()}{Object.keys(filters).length > 0 ? ' under these filters' : ''}</span>
          </p>
        )}
      </div>
      {live.data && (
        <div className="live-spark">
          <Sparkline minutes={live.data.minutes} />
          <span className="muted small">{busiest && busiest.clicks > 0 ? `Busiest minute: ${busiest.clicks} at ${busiest.minute.slice(11)} UTC` : 'None in the last hour'} · updates every {LIVE_INTERVAL_MS / 1000} s</span>
        </div>
      )}
    </section>
  )
}
