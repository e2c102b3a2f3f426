// The account's QR codes: each with its image, scans and downloads; create, edit, see the
// statistics of, or delete (after a confirmation) each one.
import { Link } from 'react-router'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { displayUrl, formatCount, formatDate } from '../components/format'
import { ListPageBody, useListPage } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { EmptyState } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { fileNameOf } from './QrDesigner'
import { imageAddress } from './qr-design'
import { useDeleteQrCode, useQrPage, type QrEntry } from './qr-queries'
import './qr.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'
import { ActiveTagChips, ItemTagBadges, TagFilterSelect, useTagParams } from '../tags/TagFilter'

function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`
}

export function QrCodesPage() {
  // What the role does not allow shows disabled, with the reason said once (members/RoleGuard.tsx).
  const mayChange = useMay('editor')
  const { page, setPage, notice, deleting, setDeleting } = useListPage<QrEntry>()
  const [tags, setTags] = useTagParams()
  const qrs = useQrPage(page, tags)
  // Images are cached by the browser for minutes; a fresh list asks for fresh thumbnails.
  const version = qrs.dataUpdatedAt

  return (
    <>
      <PageHeader
        title="QR codes"
        description={<>Printable codes for links, Wi-Fi, contacts and more, with their scans. <UsageNote resource="qrcodes" />
      <RoleNote id="qr-role-reason" needed="editor" allowed={mayChange} /></>}
        actions={<CreateAction resource="qrcodes" to="/qr/new">+ Create QR code</CreateAction>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      <div className="card toolbar" role="search" aria-label="Filters">
        <TagFilterSelect id="qr-tag" chosen={tags} onChange={setTags} />
      </div>
      <ActiveTagChips chosen={tags} onChange={setTags} />
      <ListPageBody
        query={qrs}
        entries={(answer) => answer.qrs}
        loadingLabel="Loading QR codes…"
        state={{ page, setPage }}
        empty={(
          <EmptyState title="No QR codes yet">
            <p className="muted">Design a code for a link, a Wi-Fi network, a contact card or a message, then download it as PNG or SVG to print.</p>
            <CreateAction resource="qrcodes" to="/qr/new">+ Create QR code</CreateAction>
          </EmptyState>
        )}
      >
        {(entries) => (
          <table className="table qr-table">
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Name</th>
                <th scope="col" className="numeric">Scans</th>
                <th scope="col">Created</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {entries.map((qr) => (
                <tr key={qr.id}>
                  <td><img className="qr-thumb" src={`${imageAddress(qr.link, 'png', 128)}&v=${version}`} alt={`QR code ${qr.name}`} width={64} height={64} loading="lazy" /></td>
                  <td data-label="Name">
                    <div className="qr-name">{qr.name}</div>
                    <a className="qr-address" href={qr.link} target="_blank" rel="noreferrer">{displayUrl(qr.link)}</a>
                    {qr.tags.length > 0 && <span className="badges"><ItemTagBadges tags={qr.tags} chosen={tags} onChange={setTags} items="QR codes" /></span>}
                  </td>
                  <td data-label="Scans" className="numeric">
                    <Link to={`/qr/${qr.id}/analytics`} className="qr-scans" aria-label={`${plural(qr.scans, 'scan')}: statistics of ${qr.name}`}>
                      <strong data-testid="qr-scans">{formatCount(qr.scans)}</strong>
                      <span className="muted small">scans</span>
                    </Link>
                  </td>
                  <td data-label="Created" className="nowrap">{formatDate(qr.date)}</td>
                  <td className="actions">
                    <a className="button small" href={`${imageAddress(qr.link, 'png', 1000)}&v=${version}`} download={`${fileNameOf(qr.name)}-1000.png`}>PNG<span className="visually-hidden"> of {qr.name}</span></a>
                    <a className="button small" href={`${imageAddress(qr.link, 'svg', 1000)}&v=${version}`} download={`${fileNameOf(qr.name)}.svg`}>SVG<span className="visually-hidden"> of {qr.name}</span></a>
                    <Link to={`/qr/${qr.id}/analytics`} className="button small">Statistics<span className="visually-hidden"> of {qr.name}</span></Link>
                    <GuardedLink to={`/qr/${qr.id}/edit`} allowed={mayChange} reasonId="qr-role-reason" className="button small ghost">Edit<span className="visually-hidden"> {qr.name}</span></GuardedLink>
                    <button type="button" className="button small ghost danger-text" disabled={!mayChange} aria-describedby={mayChange ? undefined : 'qr-role-reason'} onClick={() => setDeleting(qr)}>Delete<span className="visually-hidden"> {qr.name}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListPageBody>
      {deleting && <DeleteQrDialog qr={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

function DeleteQrDialog({ qr, onClose }: { qr: QrEntry; onClose(): void }) {
  const deletion = useDeleteQrCode()
  return (
    <DeleteRecordDialog
      title="Delete this QR code?"
      confirmLabel="Delete QR code"
      deletion={deletion}
      id={qr.id}
      onClose={onClose}
    >
      <p><strong>{qr.name}</strong> will stop working: printed copies will no longer scan, and its {plural(qr.scans, 'recorded scan')} will no longer be shown. This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
