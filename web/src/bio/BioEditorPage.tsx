// Create a bio page, or change one: the editor with its live preview.
import { useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { draftFromDetails, emptyBioDraft, toCreateBody, toUpdateBody } from './bio-form'
import { useBioPage, useCreateBioPage, useUpdateBioPage } from './bio-queries'
import { BioEditor } from './BioEditor'
import { DeleteBioDialog } from './BioPagesPage'
import './bio.css'

export function CreateBioPage() {
  const navigate = useNavigate()
  const create = useCreateBioPage()
  const [initial] = useState(emptyBioDraft)
  return (
    <>
      <PageHeader title="Create bio page" description="One page with all your links. The preview shows what visitors will see." />
      <BioEditor
        mode="create"
        initial={initial}
        submitLabel="Create bio page"
        onCancel={() => navigate('/bio')}
        onSubmit={async (draft) => {
          const created = await create.mutateAsync(toCreateBody(draft))
          navigate(`/bio/${created.id}`, { state: { notice: `Your bio page is live at ${created.url}.` } })
        }}
      />
    </>
  )
}

export function EditBioPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const update = useUpdateBioPage()
  const page = useBioPage(id)
  const location = useLocation()
  const [notice, setNotice] = useState((location.state as { notice?: string } | null)?.notice)
  const [deleting, setDeleting] = useState(false)
  // A new editor (fresh draft) after each save, so the form shows what the server stored.
  const [version, setVersion] = useState(0)

  return (
    <>
      <PageHeader
        title={page.data ? page.data.name : 'Edit bio page'}
        description="Change the page; visitors see it as soon as you save."
        actions={page.data && (
          <>
            <Link to={`/bio/${id}/statistics`} className="button">Statistics</Link>
            <button type="button" className="button ghost danger-text" onClick={() => setDeleting(true)}>Delete</button>
          </>
        )}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      {page.isError ? (
        <ErrorMessage error={page.error} onRetry={() => page.refetch()} />
      ) : !page.data ? <Loading label="Loading the bio page…" /> : (
        <BioEditor
          key={`${id}-${version}`}
          mode="edit"
          initial={draftFromDetails(page.data)}
          publicUrl={page.data.url}
          submitLabel="Save changes"
          onCancel={() => navigate('/bio')}
          onSubmit={async (draft) => {
            setNotice(undefined)
            await update.mutateAsync({ id, body: toUpdateBody(draft) })
            setVersion((current) => current + 1)
            setNotice('Saved. Visitors see the new version now.')
            window.scrollTo({ top: 0 })
          }}
        />
      )}
      {deleting && page.data && (
        <DeleteBioDialog bio={page.data} onClose={() => setDeleting(false)} onDeleted={() => navigate('/bio', { state: { notice: `Deleted "${page.data!.name}".` } })} />
      )}
    </>
  )
}
