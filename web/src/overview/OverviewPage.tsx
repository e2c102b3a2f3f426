// The account at a glance: links, clicks and unique clicks, the last 30 days of clicks, and the
// most-clicked links. The API has no account-wide statistics, so totals add up the links' own
// counters and the chart adds up the daily statistics of the most-clicked links.
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { api, unwrap } from '../api/client'
import { ClicksChart, type DailyCount } from '../components/ClicksChart'
import { CopyButton } from '../components/CopyButton'
import { displayUrl, formatCount, formatDate, lastDays } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import type { LinkEntry } from '../links/links-query'

const MAX_PAGES = 20
/** Links whose daily statistics the chart adds up. */
const CHART_LINKS = 8

interface Summary {
  totalLinks: number
  clicks: number
  uniqueClicks: number
  top: LinkEntry[]
  /** Links with at least one click. */
  clickedLinks: number
  /** The links whose daily clicks the chart adds up. */
  chartIds: number[]
}

async function readSummary(): Promise<Summary> {
  const links: LinkEntry[] = []
  let totalLinks = 0
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const { data } = await unwrap(api.GET('/api/urls', { params: { query: { limit: 100, page, order: 'clicks' } } }))
    totalLinks = data.result
    links.push(...data.urls)
    if (data.nextpage === null || data.urls.every((link) => link.clicks === 0)) break
  }
  return {
    totalLinks,
    clicks: links.reduce((sum, link) => sum + link.clicks, 0),
    uniqueClicks: links.reduce((sum, link) => sum + link.uniqueclicks, 0),
    top: links.filter((link) => link.clicks > 0).slice(0, 5),
    clickedLinks: links.filter((link) => link.clicks > 0).length,
    chartIds: links.filter((link) => link.clicks > 0).slice(0, CHART_LINKS).map((link) => link.id),
  }
}

async function readDailyClicks(ids: number[]): Promise<DailyCount[]> {
  const range = lastDays(30)
  const perLink = await Promise.all(ids.map(async (id) => (await unwrap(api.GET('/api/url/{id}/stats', { params: { path: { id }, query: range } }))).data.days))
  const days = new Map<string, DailyCount>()
  for (const list of perLink) {
    for (const day of list) {
      const total = days.get(day.date) ?? { date: day.date, clicks: 0, uniqueClicks: 0 }
      total.clicks += day.clicks
      total.uniqueClicks += day.uniqueClicks
      days.set(day.date, total)
    }
  }
  if (days.size === 0) {
    // No clicked link yet: an empty month still reads as a chart.
    const start = new Date(`${range.from}T00:00:00Z`).getTime()
    for (let index = 0; index < 30; index += 1) {
      const date = new Date(start + index * 86_400_000).toISOString().slice(0, 10)
      days.set(date, { date, clicks: 0, uniqueClicks: 0 })
    }
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date))
}

function LatestLinks() {
  const latest = useQuery({
    queryKey: ['links', 'latest'],
    queryFn: async () => (await unwrap(api.GET('/api/urls', { params: { query: { limit: 5, order: 'date' } } }))).data.urls,
  })
  return (
    <section className="card stack" aria-labelledby="overview-latest">
      <div className="section-title">
        <h2 id="overview-latest">Latest links</h2>
        <Link to="/links" className="small">All links</Link>
      </div>
      {latest.isPending ? <Loading /> : latest.isError ? <ErrorMessage error={latest.error} onRetry={() => latest.refetch()} /> : (
        <ol className="top-links">
          {latest.data.map((link) => (
            <li key={link.id}>
              <span className="latest-link">
                <a href={link.shorturl} target="_blank" rel="noreferrer" className="top-link-name">{displayUrl(link.shorturl)}</a>
                <span className="muted small ellipsis">{link.title ? `${link.title} · ` : ''}{displayUrl(link.longurl)}</span>
              </span>
              <span className="row nowrap">
                <span className="muted small nowrap latest-date">{formatDate(link.date)}</span>
                <CopyButton text={link.shorturl} what={displayUrl(link.shorturl)} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

export function OverviewPage() {
  const summary = useQuery({ queryKey: ['links', 'summary'], queryFn: readSummary })
  const topIds = summary.data?.chartIds ?? []
  const daily = useQuery({
    queryKey: ['links', 'daily', topIds],
    queryFn: () => readDailyClicks(topIds),
    enabled: summary.isSuccess,
  })

  return (
    <>
      <PageHeader title="Overview" description="Totals of all your links, and their clicks over the last 30 days." actions={<Link to="/links/new" className="button primary">+ Create link</Link>} />
      {summary.isPending ? <Loading label="Adding up your clicks…" /> : summary.isError ? <ErrorMessage error={summary.error} onRetry={() => summary.refetch()} /> : (
        <>
          <section className="kpis" aria-label="Totals">
            <div className="card kpi"><span className="kpi-label">Links</span><strong className="kpi-value">{formatCount(summary.data.totalLinks)}</strong></div>
            <div className="card kpi"><span className="kpi-label">Total clicks</span><strong className="kpi-value">{formatCount(summary.data.clicks)}</strong></div>
            <div className="card kpi"><span className="kpi-label">Unique clicks</span><strong className="kpi-value">{formatCount(summary.data.uniqueClicks)}</strong></div>
          </section>
          {summary.data.totalLinks === 0 ? (
            <div className="card">
              <EmptyState title="Welcome to Linkwell">
                <p className="muted">Create a short link and share it: its clicks will show up here.</p>
                <div className="row wrap center"><Link to="/links/new" className="button primary">+ Create your first link</Link><Link to="/bulk" className="button">Bulk create</Link></div>
              </EmptyState>
            </div>
          ) : (
            <div className="overview-grid">
              <section className="card stack" aria-labelledby="overview-chart">
                <div className="section-title">
                  <h2 id="overview-chart">Clicks, last 30 days</h2>
                  {summary.data.clickedLinks > topIds.length && <span className="muted small">Your {topIds.length} most-clicked links</span>}
                </div>
                {daily.isPending ? <Loading /> : daily.isError ? <ErrorMessage error={daily.error} onRetry={() => daily.refetch()} /> : <ClicksChart days={daily.data} label="Clicks and unique clicks per day over the last 30 days" />}
              </section>
              <section className="card stack" aria-labelledby="overview-top">
                <div className="section-title">
                  <h2 id="overview-top">Top links</h2>
                  <Link to="/links?order=clicks" className="small">All links</Link>
                </div>
                {summary.data.top.length === 0 ? <EmptyState title="No clicks yet"><p className="muted small">Share a short link to see it here.</p></EmptyState> : (
                  <ol className="top-links">
                    {summary.data.top.map((link) => (
                      <li key={link.id}>
                        <Link to={`/links/${link.id}/analytics`}>
                          <span className="top-link-name">{displayUrl(link.shorturl)}</span>
                          <span className="muted small ellipsis">{displayUrl(link.longurl)}</span>
                        </Link>
                        <span className="top-link-count"><strong>{formatCount(link.clicks)}</strong> <span className="muted small">{link.clicks === 1 ? 'click' : 'clicks'}</span></span>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
              <div className="overview-wide"><LatestLinks /></div>
            </div>
          )}
        </>
      )}
    </>
  )
}
