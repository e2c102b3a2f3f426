// Daily clicks and unique clicks as a line chart (Chart.js, only the parts a line chart needs),
// shared by the overview and a link's analytics. A table of the same numbers sits behind it for
// screen readers.
import { CategoryScale, Chart, Filler, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend } from 'chart.js'
import { useEffect, useRef } from 'react'

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Tooltip, Legend)

export interface DailyCount {
  date: string
  clicks: number
  uniqueClicks: number
}

const shortDay = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' })

/** `noun`: what a day counts, "Clicks" by default ("Scans" for a QR code, "Visits" for a rotator). */
export function ClicksChart({ days, label, noun = 'Clicks' }: { days: DailyCount[]; label: string; noun?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null)

  useEffect(() => {
    const canvas = canvasRef.current
    // Without a 2D context (a browser that blocks canvas, or jsdom) the table below still says it all.
    if (!canvas?.getContext('2d')) return
    // Over a few weeks each day gets a dot, so a single busy day still reads as a point.
    const pointRadius = days.length <= 62 ? 2.5 : 0
    const chart = new Chart(canvas, {
      type: 'line',
      data: {
        labels: days.map((day) => shortDay.format(new Date(`${day.date}T00:00:00Z`))),
        datasets: [
          { label: noun, data: days.map((day) => day.clicks), borderColor: '#4f46e5', backgroundColor: 'rgba(79, 70, 229, 0.12)', fill: true, tension: 0.25, pointRadius, pointHoverRadius: 4, borderWidth: 2 },
          { label: `Unique ${noun.toLowerCase()}`, data: days.map((day) => day.uniqueClicks), borderColor: '#0ea5e9', backgroundColor: 'transparent', fill: false, tension: 0.25, pointRadius: 0, pointHoverRadius: 4, borderWidth: 2, borderDash: [5, 4] },
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
  }, [days])

  return (
    <figure className="chart">
      <div className="chart-canvas">
        <canvas ref={canvasRef} role="img" aria-label={label} />
      </div>
      <figcaption className="visually-hidden">
        <table>
          <caption>{label}</caption>
          <thead><tr><th scope="col">Day</th><th scope="col">{noun}</th><th scope="col">Unique {noun.toLowerCase()}</th></tr></thead>
          <tbody>{days.map((day) => <tr key={day.date}><td>{day.date}</td><td>{day.clicks}</td><td>{day.uniqueClicks}</td></tr>)}</tbody>
        </table>
      </figcaption>
    </figure>
  )
}
