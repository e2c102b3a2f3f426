// Adds the account's short links, bio pages and QR codes to a channel. Links are searched on the
// server (GET /api/urls?q=); bio pages and QR codes have no search there, so the newest 100 of
// each are filtered here.
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { messageOf } from '../api/client'
import { ErrorMessage } from '../components/States'
import { CANDIDATE_RESULTS as RESULTS, ITEM_TYPE_NAMES, useAddToChannel, useChannelCandidates, type ChannelItemType } from './channel-queries'

const CREATE_PATHS: Record<ChannelItemType, string> = { links: '/links/new', bio: '/bio', qr: '/qr' }
const PLURALS: Record<ChannelItemType, string> = { links: 'short links', bio: 'bio pages', qr: 'QR codes' }

export function AddItemsPicker({ channelId, added }: { channelId: number; added: Set<string> }) {
  const [type, setType] = useState<ChannelItemType>('links')
  const [search, setSearch] = useState('')
  const [q, setQ] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 250)
    return () => clearTimeout(timer)
  }, [search])

  const candidates = useChannelCandidates(type, q)
  const add = useAddToChannel()

  const needle = q.toLowerCase()
  const shown = (candidates.data ?? [])
    .filter((candidate) => type === 'links' || !needle || `${candidate.title} ${candidate.detail}`.toLowerCase().includes(needle))
    .slice(0, RESULTS)

  return (
    <section className="card stack" aria-labelledby="add-items-title">
      <h2 id="add-items-title">Add to this channel</h2>
      <div className="item-tabs" role="group" aria-label="Kind of item">
        {(Object.keys(ITEM_TYPE_NAMES) as ChannelItemType[]).map((kind) => (
          <button key={kind} type="button" className={kind === type ? 'button small active' : 'button small ghost'} aria-pressed={kind === type} onClick={() => { setType(kind); setSearch(''); setQ(''); add.reset() }}>
            {kind === 'links' ? 'Short links' : kind === 'bio' ? 'Bio pages' : 'QR codes'}
          </button>
        ))}
      </div>
      <div className="field">
        <label htmlFor="channel-item-search">Find {PLURALS[type]}</label>
        <input id="channel-item-search" type="search" placeholder={type === 'links' ? 'Alias, destination or title' : 'Name or address'} value={search} onChange={(event) => setSearch(event.target.value)} />
      </div>
      {add.isError && <p className="field-error" role="alert">{messageOf(add.error)}</p>}
      {candidates.isError ? <ErrorMessage error={candidates.error} onRetry={() => candidates.refetch()} /> : candidates.data && shown.length === 0 ? (
        <p className="muted small">{q ? `No ${PLURALS[type]} match “${q}”.` : <>You have no {PLURALS[type]} yet. <Link to={CREATE_PATHS[type]}>Create one</Link> first.</>}</p>
      ) : (
        <ul className="picker-list" aria-label={`${PLURALS[type]} to add`} aria-busy={candidates.isFetching}>
          {shown.map((candidate) => {
            const inChannel = added.has(`${type}:${candidate.id}`)
            return (
              <li key={candidate.id}>
                <span className="picker-text">
                  <strong>{candidate.title}</strong>
                  <span className="destination">{candidate.detail}</span>
                </span>
                <button type="button" className="button small" disabled={inChannel || add.isPending} onClick={() => add.mutate({ channel: channelId, type, item: candidate.id })}>
                  {inChannel ? 'Added' : 'Add'}<span className="visually-hidden"> {candidate.title}</span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
