// Finds the account's links by alias, destination or title (GET /api/urls?q=) and adds them to
// the campaign. A link is in one campaign at most: adding one from another campaign moves it.
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { messageOf } from '../api/client'
import { displayUrl } from '../components/format'
import { ErrorMessage } from '../components/States'
import { useLinkSearch } from '../links/link-queries'
import { useAddToCampaign } from './campaign-queries'

const RESULTS = 8

export function AddLinksPicker({ campaignId }: { campaignId: number }) {
  const [search, setSearch] = useState('')
  const [q, setQ] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 250)
    return () => clearTimeout(timer)
  }, [search])

  const results = useLinkSearch(q, RESULTS)
  const add = useAddToCampaign()

  return (
    <section className="card stack" aria-labelledby="add-links-title">
      <h2 id="add-links-title">Add links</h2>
      <div className="field">
        <label htmlFor="campaign-link-search">Find a link</label>
        <input id="campaign-link-search" type="search" placeholder="Alias, destination or title" value={search} onChange={(event) => setSearch(event.target.value)} />
      </div>
      {add.isError && <p className="field-error" role="alert">{messageOf(add.error)}</p>}
      {results.isError ? <ErrorMessage error={results.error} onRetry={() => results.refetch()} /> : results.data && results.data.urls.length === 0 ? (
        <p className="muted small">{q ? `No link matches “${q}”.` : <>You have no links yet. <Link to="/links/new">Create one</Link> first.</>}</p>
      ) : (
        <ul className="picker-list" aria-label="Links to add" aria-busy={results.isFetching}>
          {results.data?.urls.map((link) => {
            const inThis = link.campaign === campaignId
            return (
              <li key={link.id}>
                <span className="picker-text">
                  <strong>{displayUrl(link.shorturl)}</strong>
                  <span className="destination">{link.title ? `${link.title} · ` : ''}{displayUrl(link.longurl)}</span>
                  {link.campaign !== null && !inThis && <span className="muted small">In another campaign: adding moves it here.</span>}
                </span>
                <button type="button" className="button small" disabled={inThis || add.isPending} onClick={() => add.mutate({ campaign: campaignId, link: link.id })}>
                  {inThis ? 'Added' : 'Add'}<span className="visually-hidden"> {displayUrl(link.shorturl)}</span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
