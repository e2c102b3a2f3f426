// Create a QR code, or change one, in the designer.
import { useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from 'react-router'
import { useRefreshUsage } from '../account/account-queries'
import { api, unwrap } from '../api/client'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { QrDesigner } from './QrDesigner'
import { emptyQrForm, toCreateBody, toUpdateBody, valuesFromDetails } from './qr-design'
import { useQrCode, type QrDetails } from './qr-queries'

export function CreateQrPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  return (
    <>
      <PageHeader title="Create QR code" description="Choose what the code holds and how it looks; the preview is the code exactly as it will scan." actions={<Link to="/qr" className="button">Back to QR codes</Link>} />
      <QrDesigner
        initial={emptyQrForm}
        submitLabel="Create QR code"
        onCancel={() => navigate('/qr')}
        onSubmit={async (values) => {
          await unwrap(api.POST('/api/qr/add', { body: toCreateBody(values) }))
          // Refetched before the list shows again, so it never flashes its old (empty) page.
          await Promise.all([queryClient.invalidateQueries({ queryKey: ['qrs'], refetchType: 'all' }), refreshUsage()])
          navigate('/qr', { state: { notice: 'QR code created. Download it from the list, or open its statistics.' } })
        }}
      />
    </>
  )
}

export function EditQrPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const qr = useQrCode(id)
  const details = qr.data?.details
  return (
    <>
      <PageHeader
        title="Edit QR code"
        description={details?.name}
        actions={<Link to={`/qr/${id}/analytics`} className="button">Statistics</Link>}
      />
      {qr.isError ? <ErrorMessage error={qr.error} onRetry={() => qr.refetch()} /> : !details ? <Loading label="Loading the QR code…" /> : (
        <QrDesignerForDetails
          details={details}
          onCancel={() => navigate('/qr')}
          onSave={async (body) => {
            await unwrap(api.PUT('/api/qr/{id}/update', { params: { path: { id } }, body }))
            await Promise.all([queryClient.invalidateQueries({ queryKey: ['qrs'], refetchType: 'all' }), queryClient.invalidateQueries({ queryKey: ['qr', id] })])
            navigate('/qr', { state: { notice: 'QR code saved.' } })
          }}
        />
      )}
    </>
  )
}

function QrDesignerForDetails({ details, onSave, onCancel }: {
  details: QrDetails
  onSave(body: ReturnType<typeof toUpdateBody>): Promise<void>
  onCancel(): void
}) {
  const initial = valuesFromDetails(details)
  return (
    <QrDesigner
      initial={initial}
      saved={{ id: details.id, link: details.link, name: details.name }}
      submitLabel="Save changes"
      onCancel={onCancel}
      onSubmit={(values) => onSave(toUpdateBody(values, initial))}
    />
  )
}
