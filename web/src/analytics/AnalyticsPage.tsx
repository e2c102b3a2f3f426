// One link's analytics: its addresses and actions above the statistics of a range of days.
import { useParams } from 'react-router'
import { CopyButton } from '../components/CopyButton'
import { displayUrl } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage } from '../components/States'
import { useLink } from '../links/link-queries'
import { ItemStatistics } from './ItemStatistics'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

export function AnalyticsPage() {
  const id = Number(useParams().id)
  const link = useLink(id)
  const mayEdit = useMay('editor')
  const details = link.data?.details
  return (
    <>
      <PageHeader
        title={details ? (details.title || displayUrl(details.shorturl)) : 'Link analytics'}
        description={details && (
          <span className="row wrap">
            <a href={details.shorturl} target="_blank" rel="noreferrer">{displayUrl(details.shorturl)}</a>
            <span aria-hidden="true">→</span>
            <span className="ellipsis" title={details.longurl}>{displayUrl(details.longurl)}</span>
          </span>
        )}
        actions={details && (
          <>
            <CopyButton text={details.shorturl} label="Copy short URL" className="button" />
            <GuardedLink to={`/links/${id}/edit`} className="button" allowed={mayEdit} reasonId="link-role-note">Edit link</GuardedLink>
          </>
        )}
      />
      <RoleNote id="link-role-note" needed="editor" allowed={mayEdit} />
      {link.isError ? <ErrorMessage error={link.error} onRetry={() => link.refetch()} /> : <ItemStatistics item="url" id={id} conversions={details?.trackconversions ?? false} />}
    </>
  )
}
