// Clicks and unique clicks per bucket (hour, day, week or month) as a line chart (Chart.js, only
// the parts a line chart needs), shared by the overview and the statistics pages; with a
// comparison, the previous period's clicks as a muted dashed line over the same buckets. A table
// of the same numbers sits behind it for screen readers.
import { CategoryScale, Chart, Filler, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend } from 'chart.js'
import { useEffect, useRef } from 'react'

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Tooltip, Legend)

export interface DailyCount {
  /** `YYYY-MM-DD` (a day; a week's first day), `YYYY-MM-DD HH:00` (an hour) or `YYYY-MM` (a month). */
  date: string
  clicks: number
  uniqueClicks: number
}

export type Bucket = 'hour' | 'day' | 'week' | 'month'

const shortDay = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' })
const shortMonth = new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' })

/** How a bucket reads on the axis: "Nov 28", "Nov 28 14:00", "Nov 2026". The text is already in the zone. */
export function bucketLabel(date: string, bucket: Bucket = 'day'): string {
  const [day, hour] = date.split(' ')
  if (/^\d{4}-\d{2}$/.test(date)) return shortMonth.format(new Date(`${date}-01T00:00:00Z`))
  const time = new Date(`${day}T00:00:00Z`)
  if (Number.isNaN(time.getTime())) return date
  if (bucket === 'hour' && hour) return `${shortDay.format(time)} ${hour}`
  return shortDay.format(time)
}

const BUCKET_NAMES: Record<Bucket, string> = { hour: 'Hour', day: 'Day', week: 'Week from', month: 'Month' }

/**
 * `noun`: what a bucket counts, "Clicks" by default ("Scans" for a QR code, "Visits" for a rotator).
 * `previous`: the previous period's buckets, drawn against the current ones in order.
 */
export function ClicksChart({ days, label, noun = 'Clicks', bucket = 'day', previous }: { days: DailyCount[]; label: string; noun?: string; bucket?: Bucket; previous?: DailyCount[] }) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const previousLabel = `${noun}, previous period`

  useEffect(() => {
    const canvas = canvasRef.current
    // Without a 2D context (a browser that blocks canvas, or jsdom) the table below still says it all.
    if (!canvas?.getContext('2d')) return
    // Over a few weeks each bucket gets a dot, so a single busy one still reads as a point.
    const pointRadius = days.length <= 62 ? 2.5 : 0
    const chart = new Chart(canvas, {
      type: 'line',
      data: {
        labels: days.map((day) => bucketLabel(day.date, bucket)),
        datasets: [
          { label: noun, data: days.map((day) => day.clicks), borderColor: '#4f46e5', backgroundColor: 'rgba(79, 70, 229, 0.12)', fill: true, tension: 0.25, pointRadius, pointHoverRadius: 4, borderWidth: 2 },
          { label: `Unique ${noun.toLowerCase()}`, data: days.map((day) => day.uniqueClicks), borderColor: '#0ea5e9', backgroundColor: 'transparent', fill: false, tension: 0.25, pointRadius: 0, pointHoverRadius: 4, borderWidth: 2, borderDash: [5, 4] },
          ...(previous ? [{ label: previousLabel, data: days.map((_day, index) => previous[index]?.clicks ?? null), borderColor: '#94a3b8', backgroundColor: 'transparent', fill: false, tension: 0.25, pointRadius: 0, pointHoverRadius: 4, borderWidth: 2, borderDash: [2, 3] }] : []),
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12, usePointStyle: true } } },
        scales: {
          x: { grid: { display: false }, ticks: { maxTicksLimit: 8, maxRotation: 0, color: '#64748b' } },
          y: { beginAtZero: true, ticks: { precision: 0, color: '#64748b' }, grid: { color: '#eef0f4' }, border: { display: false } },
        },
      },
    })
    return () => chart.destroy()
  }, [days, previous, bucket, noun, previousLabel])

  return (
    <figure className="chart">
      <div className="chart-canvas">
        <canvas ref={canvasRef} role="img" aria-label={label} />
      </div>
      <figcaption className="visually-hidden">
        <table>
          <caption>{label}</caption>
          <thead><tr><th scope="col">{BUCKET_NAMES[bucket]}</th><th scope="col">{noun}</th><th scope="col">Unique {noun.toLowerCase()}</th>{previous && <th scope="col">{previousLabel}</th>}</tr></thead>
          <tbody>{days.map((day, index) => <tr key={day.date}><td>{day.date}</td><td>{day.clicks}</td><td>{day.uniqueClicks}</td>{previous && <td>{previous[index]?.clicks ?? ''}</td>}</tr>)}</tbody>
        </table>
      </figcaption>
    </figure>
  )
}
