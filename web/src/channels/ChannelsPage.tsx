// The account's channels, starred first: each with its color, description and star; open one to
// add and remove its short links, bio pages and QR codes.
import { useState } from 'react'
import { Link, useLocation, useSearchParams } from 'react-router'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { DeleteChannelDialog } from './DeleteChannelDialog'
import { StarButton } from './StarButton'
import { useChannelPage, type Channel } from './channel-queries'
import './channels.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

export function ChannelsPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const channels = useChannelPage(page)
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [deleting, setDeleting] = useState<Channel>()

  return (
    <>
      <PageHeader
        title="Channels"
        description={<>Sort your links, bio pages and QR codes by where you publish them. Starred channels come first. <UsageNote resource="channels" />
      <RoleNote id="channels-role-reason" needed="editor" allowed={mayChange} /></>}
        actions={<CreateAction resource="channels" to="/channels/new">+ New channel</CreateAction>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      {channels.isPending ? <Loading label="Loading channels…" /> : channels.isError ? <ErrorMessage error={channels.error} onRetry={() => channels.refetch()} /> : channels.data.channels.length === 0 ? (
        <div className="card">
          <EmptyState title="No channels yet">
            <p className="muted">Make one channel per place you publish (Instagram, the newsletter, print) and keep its links, bio pages and QR codes together.</p>
            <CreateAction resource="channels" to="/channels/new">+ New channel</CreateAction>
          </EmptyState>
        </div>
      ) : (
        <div className={channels.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <ul className="org-list" aria-label="Channels">
            {channels.data.channels.map((channel) => (
              <li key={channel.id} className="org-row">
                <div className="org-main">
                  <span className="channel-name">
                    <span className="channel-dot" style={{ background: channel.color }} aria-hidden="true" />
                    <Link to={`/channels/${channel.id}`} className="org-title">{channel.name}</Link>
                  </span>
                  {channel.description && <p className="channel-description">{channel.description}</p>}
                </div>
                <StarButton channel={channel} />
                <div className="org-actions">
                  <Link to={`/channels/${channel.id}`} className="button small">Open<span className="visually-hidden"> {channel.name}</span></Link>
                  <GuardedLink to={`/channels/${channel.id}/edit`} allowed={mayChange} reasonId="channels-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {channel.name}</span></GuardedLink>
                  <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'channels-role-reason'} onClick={() => setDeleting(channel)}>Delete<span className="visually-hidden"> {channel.name}</span></button>
                </div>
              </li>
            ))}
          </ul>
          <Pagination page={page} maxPage={channels.data.maxpage} total={channels.data.result} onPage={(next) => setParams(next === 1 ? {} : { page: String(next) })} />
        </div>
      )}
      {deleting && <DeleteChannelDialog channel={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}
