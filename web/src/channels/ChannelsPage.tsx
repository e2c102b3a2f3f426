// The account's channels, starred first: each with its color, description and star; open one to
// add and remove its short links, bio pages and QR codes.
import { Link } from 'react-router'
import { ListPageBody, useListPage } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { EmptyState } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { DeleteChannelDialog } from './DeleteChannelDialog'
import { StarButton } from './StarButton'
import { useChannelPage, type Channel } from './channel-queries'
import './channels.css'

export function ChannelsPage() {
  const { page, setPage, notice, deleting, setDeleting } = useListPage<Channel>()
  const channels = useChannelPage(page)

  return (
    <>
      <PageHeader
        title="Channels"
        description={<>Sort your links, bio pages and QR codes by where you publish them. Starred channels come first. <UsageNote resource="channels" /></>}
        actions={<CreateAction resource="channels" to="/channels/new">+ New channel</CreateAction>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      <ListPageBody
        query={channels}
        entries={(answer) => answer.channels}
        loadingLabel="Loading channels…"
        state={{ page, setPage }}
        empty={(
          <EmptyState title="No channels yet">
            <p className="muted">Make one channel per place you publish (Instagram, the newsletter, print) and keep its links, bio pages and QR codes together.</p>
            <CreateAction resource="channels" to="/channels/new">+ New channel</CreateAction>
          </EmptyState>
        )}
      >
        {(entries) => (
          <ul className="org-list" aria-label="Channels">
            {entries.map((channel) => (
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
                  <Link to={`/channels/${channel.id}/edit`} className="button small ghost">Edit<span className="visually-hidden"> {channel.name}</span></Link>
                  <button type="button" className="button small ghost danger-text" onClick={() => setDeleting(channel)}>Delete<span className="visually-hidden"> {channel.name}</span></button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </ListPageBody>
      {deleting && <DeleteChannelDialog channel={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}
