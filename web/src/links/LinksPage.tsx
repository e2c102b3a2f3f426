// The account's short links: search, sort, filter, page through; copy, open analytics, edit or
// delete each one.
import { useEffect, useRef, useState } from 'react'
import { Link, useLocation, useSearchParams } from 'react-router'
import { useAllCampaigns } from '../campaigns/campaign-queries'
import { useAllChannels } from '../channels/channel-queries'
import { CopyButton } from '../components/CopyButton'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { displayUrl, formatCount, formatDate, formatDateTime } from '../components/format'
import { pageOf } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useAllDomains } from '../domains/domain-queries'
import { hasFilter, useDeleteLink, useLinkPage, type LinkEntry, type LinkFilters } from './link-queries'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'
import { ActiveTagChips, ItemTagBadges, TagFilterSelect, tagsOf } from '../tags/TagFilter'

/** What the link checker found, in words a person can act on: said beside the Broken badge, not in a tooltip. */
function BrokenNote({ health }: { health: NonNullable<LinkEntry['health']> }) {
  const answer = health.status === null ? 'could not be reached' : `answered with an error (${health.status})`
  return (
    <span className="broken-note">
      The destination {answer}{health.checkedat ? ` when checked ${formatDateTime(health.checkedat)}` : ''}. Edit the link to fix the address, or to send visitors elsewhere while it is broken.
    </span>
  )
}

function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`
}

/** The largest id the server accepts (a PostgreSQL integer). */
const LARGEST_ID = 2_147_483_647

/**
 * An id filter from the address, or '' for none: a hand-edited or older address (domain=main)
 * would otherwise get the server's 400 instead of the list.
 */
function idParam(params: URLSearchParams, name: string, smallest: 0 | 1): string {
  const value = params.get(name) ?? ''
  const id = Number(value)
  return /^\d+$/.test(value) && id >= smallest && id <= LARGEST_ID ? String(id) : ''
}

function readFilters(params: URLSearchParams): LinkFilters {
  return {
    q: params.get('q') ?? '',
    order: params.get('order') === 'clicks' ? 'clicks' : 'date',
    page: pageOf(params),
    campaign: idParam(params, 'campaign', 1),
    channel: idParam(params, 'channel', 1),
    // 0 is the main domain.
    domain: idParam(params, 'domain', 0),
    // ?tag=a&tag=b: links carrying every one.
    tags: tagsOf(params),
    health: params.get('health') === 'broken' ? 'broken' : '',
  }
}

export function LinksPage() {
  const [params, setParams] = useSearchParams()
  const filters = readFilters(params)
  const links = useLinkPage(filters)
  const campaigns = useAllCampaigns()
  const channels = useAllChannels()
  const domains = useAllDomains()
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [search, setSearch] = useState(filters.q)
  const [deleting, setDeleting] = useState<LinkEntry>()
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayEdit = useMay('editor')

  // The address as last set, not as last rendered: the search box's timer can fire after a sort was
  // chosen but before the page rendered it, and building on the rendered filters then lost the sort.
  // A render with the old address (a keystroke's) must not undo that either: only a new address is taken.
  const latest = useRef(params)
  const rendered = useRef(params)
  if (rendered.current !== params) {
    rendered.current = params
    latest.current = params
  }
  function change(next: Partial<LinkFilters>) {
    const merged = { ...readFilters(latest.current), page: 1, ...next }
    const { tags, ...single } = merged
    const entries = Object.entries(single).filter(([key, value]) => value !== '' && !(key === 'page' && value === 1) && !(key === 'order' && value === 'date'))
    const address = new URLSearchParams([...entries.map(([key, value]) => [key, String(value)]), ...tags.map((tag) => ['tag', tag])])
    latest.current = address
    setParams(address)
  }

  // Search as the person types, a moment after the last key.
  useEffect(() => {
    if (search === filters.q) return
    const timer = setTimeout(() => change({ q: search.trim() }), 300)
    return () => clearTimeout(timer)
  })

  const filtering = hasFilter(filters) || filters.q !== ''
  return (
    <>
      <PageHeader title="Links" description="Every short link of your account, with its clicks." actions={<>
        {/* Plain downloads: a GET with the session cookie; the server streams the file. */}
        <a href="/api/export/links" className="button ghost" download>Export links (CSV)</a>
        <a href="/api/export/clicks" className="button ghost" download>Export clicks (CSV)</a>
        <GuardedLink to="/links/new" allowed={mayEdit} reasonId="links-role-reason" className="button primary">+ Create link</GuardedLink>
      </>} />
      <RoleNote id="links-role-reason" needed="editor" allowed={mayEdit} />
      {notice && <p className="notice" role="status">{notice}</p>}
      <div className="card toolbar" role="search">
        <div className="field grow">
          <label htmlFor="links-search">Search</label>
          <input id="links-search" type="search" placeholder="Alias, destination or title" value={search} onChange={(event) => setSearch(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="links-order">Sort by</label>
          <select id="links-order" value={filters.order} onChange={(event) => change({ order: event.target.value === 'clicks' ? 'clicks' : 'date' })}>
            <option value="date">Newest first</option>
            <option value="clicks">Most clicks</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="links-campaign">Campaign</label>
          <select id="links-campaign" value={filters.campaign} onChange={(event) => change({ campaign: event.target.value })}>
            <option value="">All campaigns</option>
            {campaigns.data?.map((campaign) => <option key={campaign.id} value={campaign.id}>{campaign.name}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="links-channel">Channel</label>
          <select id="links-channel" value={filters.channel} onChange={(event) => change({ channel: event.target.value })}>
            <option value="">All channels</option>
            {channels.data?.map((channel) => <option key={channel.id} value={channel.id}>{channel.name}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="links-domain">Domain</label>
          <select id="links-domain" value={filters.domain} onChange={(event) => change({ domain: event.target.value })}>
            <option value="">All domains</option>
            <option value="0">Main domain</option>
            {domains.data?.map((domain) => <option key={domain.id} value={domain.id}>{displayUrl(domain.domain)}</option>)}
          </select>
        </div>
        <TagFilterSelect id="links-tag" chosen={filters.tags} onChange={(tags) => change({ tags })} />
        <div className="field">
          <label htmlFor="links-health">Destination</label>
          <select id="links-health" value={filters.health} onChange={(event) => change({ health: event.target.value === 'broken' ? 'broken' : '' })}>
            <option value="">All links</option>
            <option value="broken">Broken links</option>
          </select>
        </div>
      </div>
      <ActiveTagChips chosen={filters.tags} onChange={(tags) => change({ tags })} />

      {links.isPending ? <Loading label="Loading links…" /> : links.isError ? <ErrorMessage error={links.error} onRetry={() => links.refetch()} /> : links.data.links.length === 0 ? (
        <div className="card">
          {filtering ? (
            <EmptyState title="No links match">
              <p className="muted">Try another search or clear the filters.</p>
              <button type="button" className="button" onClick={() => { setSearch(''); latest.current = new URLSearchParams(); setParams(latest.current) }}>Clear filters</button>
            </EmptyState>
          ) : (
            <EmptyState title="No links yet">
              <p className="muted">Create your first short link, or paste a list of URLs to shorten them all at once.</p>
              <div className="row wrap center"><GuardedLink to="/links/new" allowed={mayEdit} reasonId="links-role-reason" className="button primary">+ Create link</GuardedLink>{mayEdit && <Link to="/bulk" className="button">Bulk create</Link>}</div>
            </EmptyState>
          )}
        </div>
      ) : (
        <div className={links.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <table className="table links-table">
            <thead>
              <tr>
                <th scope="col">Link</th>
                <th scope="col" className="numeric">Clicks</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {links.data.links.map((link) => (
                <tr key={link.id}>
                  <td data-label="Link">
                    <div className="link-cell">
                    <a href={link.shorturl} target="_blank" rel="noreferrer" className="short-url">{displayUrl(link.shorturl)}</a>
                    <span className="destination" title={link.longurl}>{link.title ? `${link.title} · ` : ''}{displayUrl(link.longurl)}</span>
                    <span className="badges">
                      {link.campaign !== null && <span className="badge campaign">{campaigns.data?.find((campaign) => campaign.id === link.campaign)?.name ?? 'Campaign'}</span>}
                      {link.password && <span className="badge">Password</span>}
                      {link.health?.state === 'broken' && <span className="badge broken">Broken</span>}
                      {link.expiry && <span className="badge">Expires {formatDate(link.expiry)}</span>}
                      {link.type !== 'direct' && <span className="badge">{link.type.startsWith('overlay') ? 'Overlay' : link.type === 'frame' ? 'Framed' : 'Splash'}</span>}
                      <ItemTagBadges tags={link.tags} chosen={filters.tags} onChange={(tags) => change({ tags })} items="links" />
                    </span>
                    {link.health?.state === 'broken' && <BrokenNote health={link.health} />}
                    </div>
                  </td>
                  <td data-label="Clicks" className="numeric">
                    <Link to={`/links/${link.id}/analytics`} className="clicks" aria-label={`${plural(link.clicks, 'click')}, ${link.uniqueclicks} unique: analytics of ${displayUrl(link.shorturl)}`}>
                      <strong>{formatCount(link.clicks)}</strong>
                      <span className="muted small">{formatCount(link.uniqueclicks)} unique</span>
                    </Link>
                  </td>
                  <td data-label="Created" className="nowrap">{formatDate(link.date)}</td>
                  <td className="actions">
                    <CopyButton text={link.shorturl} label="Copy" what={displayUrl(link.shorturl)} />
                    <Link to={`/links/${link.id}/analytics`} className="button small">Analytics<span className="visually-hidden"> of {displayUrl(link.shorturl)}</span></Link>
                    <GuardedLink to={`/links/${link.id}/edit`} allowed={mayEdit} reasonId="links-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {displayUrl(link.shorturl)}</span></GuardedLink>
                    <button type="button" className="button small ghost danger-text" disabled={!mayEdit} aria-describedby={mayEdit ? undefined : 'links-role-reason'} onClick={() => setDeleting(link)}>Delete<span className="visually-hidden"> {displayUrl(link.shorturl)}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination page={filters.page} maxPage={links.data.maxPage} total={links.data.total} onPage={(page) => change({ page })} />
        </div>
      )}
      {deleting && <DeleteLinkDialog link={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

function DeleteLinkDialog({ link, onClose }: { link: LinkEntry; onClose(): void }) {
  const deletion = useDeleteLink()
  return (
    <DeleteRecordDialog title="Delete this link?" confirmLabel="Delete link" deletion={deletion} id={link.id} onClose={onClose}>
      <p><strong>{displayUrl(link.shorturl)}</strong> will stop working and its {formatCount(link.clicks)} recorded clicks will no longer be shown. This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
