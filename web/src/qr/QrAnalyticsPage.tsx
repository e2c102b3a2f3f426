// One QR code's statistics: its image and actions above the scans of a range of days.
import { useParams } from 'react-router'
import { ItemStatistics, type VisitNouns } from '../analytics/ItemStatistics'
import { displayUrl } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage } from '../components/States'
import { imageAddress } from './qr-design'
import { useQrCode } from './qr-queries'
import './qr.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

const SCANS: VisitNouns = {
  plural: 'Scans',
  emptyHint: 'Scans are counted for link codes: each scan goes through your tracking address. Print or share the code to see them here.',
}

export function QrAnalyticsPage() {
  const id = Number(useParams().id)
  const qr = useQrCode(id)
  const mayEdit = useMay('editor')
  const details = qr.data?.details
  return (
    <>
      <PageHeader
        title={details ? details.name : 'QR code statistics'}
        description={details && (
          <span className="row wrap">
            <img className="qr-header-image" src={imageAddress(details.link, 'png', 192)} alt={`QR code ${details.name}`} width={96} height={96} />
            <a href={details.link} target="_blank" rel="noreferrer">{displayUrl(details.link)}</a>
            {details.type === 'link' && typeof details.data === 'string' && (<><span aria-hidden="true">→</span><span className="ellipsis" title={details.data}>{displayUrl(details.data)}</span></>)}
          </span>
        )}
        actions={details && <GuardedLink to={`/qr/${id}/edit`} className="button" allowed={mayEdit} reasonId="qr-role-note">Edit QR code</GuardedLink>}
      />
      <RoleNote id="qr-role-note" needed="editor" allowed={mayEdit} />
      {qr.isError ? <ErrorMessage error={qr.error} onRetry={() => qr.refetch()} /> : <ItemStatistics item="qr" id={id} nouns={SCANS} />}
    </>
  )
}
