// The account at a glance: links, clicks and unique clicks, the last 30 days of clicks, and the
// most-clicked links of those days, all from GET /api/stats (the server's last 30 UTC days); the
// clicks of the last 60 minutes, live (GET /api/stats/live).
import { Link } from 'react-router'
import { LiveCounter } from '../analytics/LiveCounter'
import '../analytics/statistics.css'
import { useAccountStatistics } from '../analytics/statistics-queries'
import { ClicksChart } from '../components/ClicksChart'
import { CopyButton } from '../components/CopyButton'
import { displayUrl, formatCount, formatDate } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useLatestLinks } from '../links/link-queries'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

/** How many of the server's top links (at most 10) the card lists: as many as the latest links beside it. */
const TOP_SHOWN = 5

function LatestLinks() {
  const latest = useLatestLinks(TOP_SHOWN)
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
  const stats = useAccountStatistics()
  const mayCreate = useMay('editor')

  return (
    <>
      <PageHeader title="Overview" description="Totals of all your links, and their clicks over the last 30 days." actions={<GuardedLink to="/links/new" allowed={mayCreate} reasonId="overview-role-reason" className="button primary">+ Create link</GuardedLink>} />
      <RoleNote id="overview-role-reason" needed="editor" allowed={mayCreate} />
      {stats.isPending ? <Loading label="Adding up your clicks…" /> : stats.isError ? <ErrorMessage error={stats.error} onRetry={() => stats.refetch()} /> : (
        <>
          <section className="kpis" aria-label="Totals">
            <div className="card kpi"><span className="kpi-label">Links</span><strong className="kpi-value">{formatCount(stats.data.totals.links)}</strong></div>
            <div className="card kpi"><span className="kpi-label">Total clicks</span><strong className="kpi-value">{formatCount(stats.data.totals.clicks)}</strong></div>
            <div className="card kpi"><span className="kpi-label">Unique clicks</span><strong className="kpi-value">{formatCount(stats.data.totals.uniqueClicks)}</strong></div>
          </section>
          {stats.data.totals.links > 0 && <LiveCounter item="workspace" filters={{}} />}
          {stats.data.totals.links === 0 ? (
            <div className="card">
              <EmptyState title="Welcome to Linkwell">
                <p className="muted">Create a short link and share it: its clicks will show up here.</p>
                <div className="row wrap center"><GuardedLink to="/links/new" allowed={mayCreate} reasonId="overview-role-reason" className="button primary">+ Create your first link</GuardedLink>{mayCreate && <Link to="/bulk" className="button">Bulk create</Link>}</div>
              </EmptyState>
            </div>
          ) : (
            <div className="overview-grid">
              <section className="card stack" aria-labelledby="overview-chart">
                <div className="section-title">
                  <h2 id="overview-chart">Clicks, last 30 days</h2>
                  <span className="row wrap">
                    <span className="muted small">{formatCount(stats.data.clicks)} {stats.data.clicks === 1 ? 'click' : 'clicks'}, {formatCount(stats.data.uniqueClicks)} unique</span>
                    <Link to="/analytics" className="small">Explore by country, referrer…</Link>
                  </span>
                </div>
                <ClicksChart days={stats.data.days} label="Clicks and unique clicks per day over the last 30 days" />
              </section>
              <section className="card stack" aria-labelledby="overview-top">
                <div className="section-title">
                  <h2 id="overview-top">Top links, last 30 days</h2>
                  <Link to="/links?order=clicks" className="small">All links</Link>
                </div>
                {stats.data.topLinks.length === 0 ? <EmptyState title="No clicks in the last 30 days"><p className="muted small">Share a short link to see it here.</p></EmptyState> : (
                  <ol className="top-links">
                    {stats.data.topLinks.slice(0, TOP_SHOWN).map((link) => (
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
