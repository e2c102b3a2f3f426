// The workspace's conversions (issue 39): which links, campaigns and channels bring leads and
// sales. Under the statistics pages' range and filter chips: the funnel clicks → leads → sales
// with its rates, the revenue per currency and the times from click to lead and to sale; the rows
// by link, campaign or channel (a click on one shows only its conversions, as a chip); the latest
// sales (the workspace's, or the one link's a chip names). Nothing recorded yet: what to do first,
// with the setup steps a click away.
// Data: GET /api/conversions/funnel, /top, /sales (conversion-queries.ts).
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { displayUrl, formatCount, formatDateTime } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { Pagination } from '../components/Pagination'
import { hasFilter, serialiseView, statisticsQuery, utcBoundsOfDays, type FilterChip, type StatisticsView, type WorkspaceDimension } from '../analytics/statistics-view'
import { displayValue, FilterChips, RangeForm, useStatisticsView } from '../analytics/ViewControls'
import { useFunnel, useRecentSales, useTopConversions, type ConversionQuery, type Funnel, type Sale, type TopBy, type TopRow, type TopSort } from './conversion-queries'
import { formatDuration, formatMoney, formatRate, revenueLines } from './money'
import './conversions.css'

export const SETUP_PATH = '/conversions/setup'

const GROUPS: Array<{ by: TopBy & WorkspaceDimension; label: string; noun: string }> = [
  { by: 'link', label: 'Link', noun: 'links' },
  { by: 'campaign', label: 'Campaign', noun: 'campaigns' },
  { by: 'channel', label: 'Channel', noun: 'channels' },
]
const SORTS: Array<{ sort: TopSort; label: string }> = [
  { sort: 'revenue', label: 'Revenue' },
  { sort: 'sales', label: 'Sales' },
  { sort: 'leads', label: 'Leads' },
  { sort: 'clicks', label: 'Clicks' },
]

/** What the page asks: the view's range and filters, in the workspace's time zone (the raw clicks). */
function conversionQuery(view: StatisticsView, timeZone: string): ConversionQuery {
  const { granularity: _granularity, compare: _compare, ...query } = statisticsQuery({ ...view, compare: false }, timeZone)
  return query
}

export function ConversionsPage() {
  const { view, show, toggle, timeZone, today, zoneKnown } = useStatisticsView(true)
  const query = conversionQuery(view, timeZone)
  const funnel = useFunnel(query, today, zoneKnown)
  // Names of the rows chips were made from, so a chip says "Campaign: Spring sale", not its id.
  const [names, setNames] = useState<Record<string, string>>({})
  const display = (chip: FilterChip) => names[`${chip.dimension}:${chip.value}`] ?? (chip.dimension === 'tag' ? chip.value : chip.dimension in { link: 1, campaign: 1, channel: 1 } ? `#${chip.value}` : displayValue(chip))
  function toggleRow(by: WorkspaceDimension, row: TopRow) {
    setNames({ ...names, [`${by}:${row.id}`]: row.name })
    toggle({ dimension: by, value: String(row.id) })
  }

  return (
    <>
      <PageHeader
        title="Conversions"
        description="Which links, campaigns and channels bring sign-ups and sales. Click a row to see only its conversions."
        actions={<Link to={SETUP_PATH} className="button">Set up tracking</Link>}
      />
      <RangeForm view={view} today={today} timeZone={timeZone} onShow={show} options={{ granularity: false, compare: false }} />
      <FilterChips view={view} onShow={show} display={display} />
      {!zoneKnown || funnel.isPending ? <Loading label="Loading conversions…" />
        : funnel.isError ? <ErrorMessage error={funnel.error} onRetry={() => funnel.refetch()} />
        : (
          <div className="stack" aria-busy={funnel.isPlaceholderData}>
            {funnel.data.leads === 0 && funnel.data.sales === 0 && view.filters.length === 0 ? <NothingYet clicks={funnel.data.clicks} /> : (
              <>
                <FunnelView funnel={funnel.data} />
                <TopRows query={query} today={today} view={view} onToggle={toggleRow} />
                <RecentSales link={onlyLink(view)} bounds={utcBoundsOfDays(view.from, view.to, timeZone)} />
              </>
            )}
          </div>
        )}
    </>
  )
}

/** No lead and no sale in the range: the three things to do first, each a step of the setup page. */
function NothingYet({ clicks }: { clicks: number }) {
  return (
    <section className="card" aria-labelledby="nothing-yet-title">
      <EmptyState title="No sign-ups or sales in this range yet">
        <div className="stack nothing-yet">
          <p className="muted" id="nothing-yet-title">
            {clicks > 0 ? `Your links were clicked ${formatCount(clicks)} ${clicks === 1 ? 'time' : 'times'} in this range, but no website has reported a sign-up or a sale.` : 'Linkwell shows here which links made money once your website reports sign-ups and sales.'}
            {' '}Three steps, about fifteen minutes with the person who runs your website:
          </p>
          <ol className="setup-summary">
            <li><Link to={`${SETUP_PATH}#track-links`}>Turn on conversion tracking</Link> for your links.</li>
            <li><Link to={`${SETUP_PATH}#script`}>Add Linkwell's script</Link> to your website, and report sign-ups.</li>
            <li><Link to={`${SETUP_PATH}#stripe`}>Connect Stripe</Link>, so that payments count as sales.</li>
          </ol>
          <p><Link to={SETUP_PATH} className="button primary">Start the setup</Link></p>
        </div>
      </EmptyState>
    </section>
  )
}

function Step({ label, value, testId, children }: { label: string; value: number; testId: string; children?: React.ReactNode }) {
  return (
    <li className="card funnel-step">
      <span className="kpi-label">{label}</span>
      <strong className="kpi-value" data-testid={testId}>{formatCount(value)}</strong>
      {children}
    </li>
  )
}

function FunnelView({ funnel }: { funnel: Funnel }) {
  const revenue = revenueLines(funnel.revenue)
  const leadRate = funnel.clicks > 0 ? funnel.leads / funnel.clicks : null
  const saleRate = funnel.clicks > 0 ? funnel.sales / funnel.clicks : null
  return (
    <section className="stack" aria-labelledby="funnel-title">
      <h2 id="funnel-title" className="visually-hidden">Funnel</h2>
      <ol className="funnel" aria-label="Clicks to leads to sales">
        <Step label="Clicks" value={funnel.clicks} testId="funnel-clicks" />
        <Step label="Leads" value={funnel.leads} testId="funnel-leads">
          <span className="small muted" data-testid="funnel-lead-rate">{formatRate(funnel.conversionRates?.leads ?? leadRate)} of clicks</span>
        </Step>
        <Step label="Sales" value={funnel.sales} testId="funnel-sales">
          <span className="small muted" data-testid="funnel-sale-rate">{formatRate(funnel.conversionRates?.sales ?? saleRate)} of clicks</span>
        </Step>
        <li className="card funnel-step revenue">
          <span className="kpi-label">Revenue</span>
          <span data-testid="funnel-revenue" className="revenue-lines">
            {revenue.length === 0 ? <strong className="kpi-value">—</strong> : revenue.map((line) => <strong key={line} className="kpi-value">{line}</strong>)}
          </span>
          <span className="small muted">after refunds</span>
        </li>
      </ol>
      <dl className="card times" aria-label="Time from click">
        <div><dt>Click to lead</dt><dd data-testid="time-to-lead">{timeText(funnel.timeToLead)}</dd></div>
        <div><dt>Click to sale</dt><dd data-testid="time-to-sale">{timeText(funnel.timeToSale)}</dd></div>
      </dl>
    </section>
  )
}

function timeText(time: Funnel['timeToLead']): string {
  if (!time) return 'None yet'
  return `${formatDuration(time.median)} typically · 90% within ${formatDuration(time.p90)}`
}

/** Revenue (or sales, leads, clicks) by link, campaign or channel; a row's name adds (or removes) its chip. */
function TopRows({ query, today, view, onToggle }: { query: ConversionQuery; today: string; view: StatisticsView; onToggle: (by: WorkspaceDimension, row: TopRow) => void }) {
  const [by, setBy] = useState<(typeof GROUPS)[number]['by']>('link')
  const [sort, setSort] = useState<TopSort>('revenue')
  const top = useTopConversions({ ...query, by, sort }, today)
  const group = GROUPS.find((entry) => entry.by === by)!
  const search = serialiseView({ ...view, filters: view.filters.filter((chip) => !['link', 'campaign', 'channel', 'tag'].includes(chip.dimension)) }).toString()
  return (
    <section className="card stack" aria-labelledby="top-title">
      <div className="top-header">
        <h2 id="top-title">{SORTS.find((entry) => entry.sort === sort)!.label} by {group.label.toLowerCase()}</h2>
        <div className="presets" role="group" aria-label="Group by">
          {GROUPS.map((entry) => <button key={entry.by} type="button" className={entry.by === by ? 'button small active' : 'button small ghost'} aria-pressed={entry.by === by} onClick={() => setBy(entry.by)}>{entry.label}</button>)}
        </div>
        <label className="sort-choice small">
          Sort by{' '}
          <select value={sort} onChange={(event) => setSort(event.target.value as TopSort)}>
            {SORTS.map((entry) => <option key={entry.sort} value={entry.sort}>{entry.label}</option>)}
          </select>
        </label>
      </div>
      {top.isPending ? <Loading label={`Loading ${group.noun}…`} /> : top.isError ? <ErrorMessage error={top.error} onRetry={() => top.refetch()} /> : top.data.length === 0 ? (
        <p className="muted small">No {group.noun} with clicks in this range.</p>
      ) : (
        <div className="table-scroll">
          <table className="table compact stack-table conversions-table" aria-label={`Conversions by ${group.label.toLowerCase()}`}>
            <thead><tr><th scope="col">{group.label}</th><th scope="col" className="numeric">Clicks</th><th scope="col" className="numeric">Leads</th><th scope="col" className="numeric">Sales</th><th scope="col" className="numeric">Revenue</th></tr></thead>
            <tbody>
              {top.data.map((row) => {
                const active = hasFilter(view.filters, { dimension: by, value: String(row.id) })
                return (
                  <tr key={row.id} className={active ? 'active' : undefined}>
                    <td data-label={group.label}>
                      <button type="button" className="link-button" aria-pressed={active} title={active ? 'Remove this filter' : 'Show only these conversions'} onClick={() => onToggle(by, row)}>{row.shorturl ? displayUrl(row.shorturl) : row.name}</button>
                      {by === 'link' && <Link className="small row-link" to={`/links/${row.id}/analytics?${search}`}>Statistics<span className="visually-hidden"> of {row.name}</span></Link>}
                    </td>
                    <td className="numeric" data-label="Clicks">{formatCount(row.clicks)}</td>
                    <td className="numeric" data-label="Leads">{formatCount(row.leads)}</td>
                    <td className="numeric" data-label="Sales">{formatCount(row.sales)}</td>
                    <td className="numeric" data-label="Revenue">{revenueLines(row.revenue).join(' · ') || '—'}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

/** The link a single link chip names (the sales list filters by one link, and by nothing else). */
function onlyLink(view: StatisticsView): number | undefined {
  const links = view.filters.filter((chip) => chip.dimension === 'link')
  return links.length === 1 ? Number(links[0]!.value) : undefined
}

/** The range's sales (its days in the workspace's zone, as UTC bounds), of one link when a single link chip names it. */
function RecentSales({ link, bounds }: { link: number | undefined; bounds: { from: string; to: string } }) {
  const [page, setPage] = useState(1)
  useEffect(() => setPage(1), [link, bounds.from, bounds.to])
  const sales = useRecentSales(link, bounds, page)
  return (
    <section className="card stack" aria-labelledby="sales-title">
      <div>
        <h2 id="sales-title">Latest sales</h2>
        <p className="muted small">{link === undefined ? 'Every link’s sales and refunds in this range, newest first.' : 'This link’s sales and refunds in this range, newest first.'}</p>
      </div>
      {sales.isPending ? <Loading label="Loading sales…" /> : sales.isError ? <ErrorMessage error={sales.error} onRetry={() => sales.refetch()} /> : sales.data.sales.length === 0 ? (
        <p className="muted small">No sales in this range.</p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table compact stack-table conversions-table" aria-label="Latest sales">
              <thead><tr><th scope="col">When</th><th scope="col" className="numeric">Amount</th><th scope="col">Customer</th><th scope="col">Link</th><th scope="col">Invoice</th></tr></thead>
              <tbody>
                {sales.data.sales.map((sale: Sale) => (
                  <tr key={sale.id}>
                    <td className="nowrap" data-label="When">{formatDateTime(sale.date)}</td>
                    <td className={sale.amount < 0 ? 'numeric refund' : 'numeric'} data-label="Amount">{formatMoney(sale.amount, sale.currency)}{sale.amount < 0 && <span className="muted small"> refund</span>}</td>
                    <td data-label="Customer">{sale.customer === null ? <span className="muted">Unknown or deleted</span> : (sale.customer.name || sale.customer.id)}</td>
                    <td data-label="Link">{sale.link === null ? <span className="muted">Not attributed</span> : sale.link.shorturl === null ? <span className="muted">Deleted link</span> : <Link to={`/links/${sale.link.id}/analytics`}>{displayUrl(sale.link.shorturl)}</Link>}</td>
                    <td data-label="Invoice"><code className="small">{sale.invoiceid}</code>{sale.source === 'stripe' && <span className="muted small"> · Stripe</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} maxPage={sales.data.maxpage} total={sales.data.result} onPage={setPage} />
        </>
      )}
    </section>
  )
}
