// The account's bio pages: each with its public address (open, copy), its visits, and the way to
// its statistics, editor and deletion.
import { Link } from 'react-router'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { CopyButton } from '../components/CopyButton'
import { displayUrl, formatCount, formatDate } from '../components/format'
import { ListPageBody, useListPage } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { EmptyState } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { useBioPageList, useDeleteBioPage, type BioListEntry } from './bio-queries'
import './bio.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'
import { ActiveTagChips, ItemTagBadges, TagFilterSelect, useTagParams } from '../tags/TagFilter'

export function BioPagesPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const { page, setPage, notice, deleting, setDeleting } = useListPage<BioListEntry>()
  const [tags, setTags] = useTagParams()
  const list = useBioPageList(page, tags)

  return (
    <>
      <PageHeader
        title="Bio pages"
        description={<span className="row wrap">One page with all your links, for a profile's single link. <UsageNote resource="bio" />
      <RoleNote id="bio-role-reason" needed="editor" allowed={mayChange} /></span>}
        actions={<CreateAction resource="bio" to="/bio/new">+ Create bio page</CreateAction>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      <div className="card toolbar" role="search" aria-label="Filters">
        <TagFilterSelect id="bio-tag" chosen={tags} onChange={setTags} />
      </div>
      <ActiveTagChips chosen={tags} onChange={setTags} />
      <ListPageBody
        query={list}
        entries={(answer) => answer.bio}
        loadingLabel="Loading bio pages…"
        state={{ page, setPage }}
        empty={(
          <EmptyState title="No bio pages yet">
            <p className="muted">A bio page gathers your links (shop, newsletter, latest video) behind one short address for your social profiles.</p>
            <CreateAction resource="bio" to="/bio/new">+ Create bio page</CreateAction>
          </EmptyState>
        )}
      >
        {(entries) => (
          <table className="table bio-table">
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col" className="numeric">Visits</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {entries.map((bio) => (
                <tr key={bio.id}>
                  <td data-label="Page">
                    <div className="link-cell">
                      <Link to={`/bio/${bio.id}`} className="short-url">{bio.name}</Link>
                      <a href={bio.url} target="_blank" rel="noreferrer" className="destination">{displayUrl(bio.url)}</a>
                      {bio.tags.length > 0 && <span className="badges"><ItemTagBadges tags={bio.tags} chosen={tags} onChange={setTags} items="bio pages" /></span>}
                    </div>
                  </td>
                  <td data-label="Visits" className="numeric">
                    <Link to={`/bio/${bio.id}/statistics`} aria-label={`${formatCount(bio.clicks)} visit${bio.clicks === 1 ? '' : 's'}: statistics of ${bio.name}`}>
                      <strong>{formatCount(bio.clicks)}</strong> <span className="muted small bio-visits-unit">{bio.clicks === 1 ? 'visit' : 'visits'}</span>
                    </Link>
                  </td>
                  <td data-label="Created" className="nowrap">{formatDate(bio.date)}</td>
                  <td className="actions">
                    <CopyButton text={bio.url} label="Copy address" what={bio.name} />
                    <Link to={`/bio/${bio.id}/statistics`} className="button small">Statistics<span className="visually-hidden"> of {bio.name}</span></Link>
                    <GuardedLink to={`/bio/${bio.id}`} allowed={mayChange} reasonId="bio-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {bio.name}</span></GuardedLink>
                    <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'bio-role-reason'} onClick={() => setDeleting(bio)}>Delete<span className="visually-hidden"> {bio.name}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListPageBody>
      {deleting && <DeleteBioDialog bio={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

export function DeleteBioDialog({ bio, onClose, onDeleted }: { bio: { id: number; name: string; url: string }; onClose(): void; onDeleted?(): void }) {
  const deletion = useDeleteBioPage()
  return (
    <DeleteRecordDialog
      title="Delete this bio page?"
      confirmLabel="Delete bio page"
      deletion={deletion}
      id={bio.id}
      onClose={onClose}
      onDeleted={onDeleted}
    >
      <p><strong>{bio.name}</strong> at {displayUrl(bio.url)} will stop working for visitors, and its statistics go with it. This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
