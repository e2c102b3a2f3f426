// Create a bio page, or change one: the editor with its live preview.
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { useRefreshUsage } from '../account/account-queries'
import { api, unwrap } from '../api/client'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { draftFromDetails, emptyBioDraft, toCreateBody, toUpdateBody } from './bio-form'
import { bioQueryKey, useBioPage } from './bio-queries'
import { BioEditor } from './BioEditor'
import { DeleteBioDialog } from './BioPagesPage'
import './bio.css'

export function CreateBioPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
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
          const created = await unwrap(api.POST('/api/bio/add', { body: toCreateBody(draft) }))
          await Promise.all([queryClient.invalidateQueries({ queryKey: bioQueryKey }), refreshUsage()])
          navigate(`/bio/${created.id}`, { state: { notice: `Your bio page is live at ${created.url}.` } })
        }}
      />
    </>
  )
}

export function EditBioPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
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
            await unwrap(api.PUT('/api/bio/{id}/update', { params: { path: { id } }, body: toUpdateBody(draft) }))
            await queryClient.invalidateQueries({ queryKey: bioQueryKey })
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
