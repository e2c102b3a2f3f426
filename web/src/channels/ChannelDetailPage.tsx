// One channel: its color, description and star, its short links, bio pages and QR codes (remove
// each behind a confirmation), and a picker to add more.
import { useEffect, useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { messageOf } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { displayUrl, formatCount } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { AddItemsPicker } from './AddItemsPicker'
import { DeleteChannelDialog } from './DeleteChannelDialog'
import { StarButton } from './StarButton'
import { ITEM_TYPE_NAMES, useChannel, useChannelItems, useRemoveFromChannel, type ChannelItem, type ChannelItemType } from './channel-queries'
import './channels.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

export function ChannelDetailPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const channel = useChannel(id)
  const [page, setPage] = useState(1)
  const items = useChannelItems(id, page)
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [deleting, setDeleting] = useState(false)
  const [removing, setRemoving] = useState<ChannelItem>()
  const mayEdit = useMay('editor')
  // The title carries the color dot, so the tab's name is set here rather than by PageHeader.
  const name = channel.data?.name
  useEffect(() => {
    if (name) document.title = `${name} · Linkwell`
  }, [name])

  if (channel.isError) return <><PageHeader title="Channel" /><ErrorMessage error={channel.error} onRetry={() => channel.refetch()} /></>
  if (!channel.data) return <><PageHeader title="Channel" /><Loading label="Loading the channel…" /></>
  const data = channel.data
  const added = new Set((items.data?.items ?? []).map((item) => `${item.type}:${item.id}`))
  return (
    <>
      <PageHeader
        title={<span className="channel-name"><span className="channel-dot" style={{ background: data.color }} aria-hidden="true" />{data.name}</span>}
        description={<>{data.description && <span className="channel-description-line">{data.description}</span>}<Link to="/channels">← All channels</Link></>}
        actions={<>
          <StarButton channel={data} reasonId={mayEdit ? undefined : 'channel-role-note'} />
          <GuardedLink to={`/channels/${id}/edit`} className="button" allowed={mayEdit} reasonId="channel-role-note">Edit</GuardedLink>
          <button type="button" className="button ghost danger-text" onClick={() => setDeleting(true)} disabled={!mayEdit} aria-describedby={mayEdit ? undefined : 'channel-role-note'}>Delete</button>
        </>}
      />
      <RoleNote id="channel-role-note" needed="editor" allowed={mayEdit} />
      {notice && <p className="notice" role="status">{notice}</p>}
      <div className="channel-grid">
        <section className="card stack" aria-labelledby="channel-items-title">
          <div className="row between wrap">
            <h2 id="channel-items-title">In this channel</h2>
            {items.data && <span className="muted small">{formatCount(items.data.result)} {items.data.result === 1 ? 'item' : 'items'}</span>}
          </div>
          {items.isPending ? <Loading label="Loading the channel's items…" /> : items.isError ? <ErrorMessage error={items.error} onRetry={() => items.refetch()} /> : items.data.items.length === 0 ? (
            <EmptyState title="Nothing in this channel yet">
              <p className="muted">Add short links, bio pages and QR codes with the picker.</p>
            </EmptyState>
          ) : (
            <>
              <ul className="picker-list" aria-label="Items in this channel">
                {items.data.items.map((item) => (
                  <li key={`${item.type}:${item.id}`}>
                    <span className="badge">{ITEM_TYPE_NAMES[item.type as ChannelItemType] ?? item.type}</span>
                    <span className="picker-text">
                      <strong>{item.title || displayUrl(item.link)}</strong>
                      <a href={item.link} target="_blank" rel="noreferrer" className="destination">{displayUrl(item.link)}</a>
                    </span>
                    <button type="button" className="button small ghost danger-text" onClick={() => setRemoving(item)} disabled={!mayEdit} aria-describedby={mayEdit ? undefined : 'channel-role-note'}>Remove<span className="visually-hidden"> {item.title || displayUrl(item.link)}</span></button>
                  </li>
                ))}
              </ul>
              <Pagination page={page} maxPage={items.data.maxpage} total={items.data.result} onPage={setPage} />
            </>
          )}
        </section>
        {mayEdit && <AddItemsPicker channelId={id} added={added} />}
      </div>
      {removing && <RemoveItemDialog channelId={id} item={removing} onClose={() => setRemoving(undefined)} />}
      {deleting && <DeleteChannelDialog channel={data} onClose={() => setDeleting(false)} onDeleted={() => navigate('/channels', { state: { notice: `Channel “${data.name}” deleted.` } })} />}
    </>
  )
}

function RemoveItemDialog({ channelId, item, onClose }: { channelId: number; item: ChannelItem; onClose(): void }) {
  const type = item.type as ChannelItemType
  const remove = useRemoveFromChannel()
  const noun = (ITEM_TYPE_NAMES[type] ?? 'item').toLowerCase()
  return (
    <ConfirmDialog title={`Remove this ${noun} from the channel?`} confirmLabel="Remove" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate({ channel: channelId, type, item: item.id }, { onSuccess: onClose })} onCancel={onClose}>
      <p><strong>{item.title || displayUrl(item.link)}</strong> leaves this channel only; it keeps working and stays in your other channels.</p>
    </ConfirmDialog>
  )
}
