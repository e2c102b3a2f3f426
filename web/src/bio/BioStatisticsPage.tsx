// One bio page's visits over a range of days, with its address and the way back to its editor.
// The statistics are asked for once the page is known to exist (another account's id is "Not found", nothing more).
import { useParams } from 'react-router'
import { ItemStatistics } from '../analytics/ItemStatistics'
import { CopyButton } from '../components/CopyButton'
import { displayUrl } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { useBioPage } from './bio-queries'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

const VISITS = { plural: 'Visits', emptyHint: 'Share the page\'s address, or choose a longer range. New visits appear here within seconds.' }

export function BioStatisticsPage() {
  const id = Number(useParams().id)
  const page = useBioPage(id)
  const mayEdit = useMay('editor')
  return (
    <>
      <PageHeader
        title={page.data ? `${page.data.name}: statistics` : 'Bio page statistics'}
        description={page.data && <a href={page.data.url} target="_blank" rel="noreferrer">{displayUrl(page.data.url)}</a>}
        actions={page.data && (
          <>
            <CopyButton text={page.data.url} label="Copy address" className="button" />
            <GuardedLink to={`/bio/${id}`} className="button" allowed={mayEdit} reasonId="bio-role-note">Edit page</GuardedLink>
          </>
        )}
      />
      <RoleNote id="bio-role-note" needed="editor" allowed={mayEdit} />
      {page.isError ? (
        <ErrorMessage error={page.error} onRetry={() => page.refetch()} />
      ) : page.isPending ? <Loading label="Loading the bio page…" /> : <ItemStatistics item="bio" id={id} nouns={VISITS} />}
    </>
  )
}
