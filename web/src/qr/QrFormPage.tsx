// Create a QR code, or change one, in the designer.
import { Link, useNavigate, useParams } from 'react-router'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { QrDesigner } from './QrDesigner'
import { emptyQrForm, toCreateBody, toUpdateBody, valuesFromDetails } from './qr-design'
import { useCreateQrCode, useQrCode, useUpdateQrCode, type QrDetails } from './qr-queries'

export function CreateQrPage() {
  const navigate = useNavigate()
  const create = useCreateQrCode()
  return (
    <>
      <PageHeader title="Create QR code" description="Choose what the code holds and how it looks; the preview is the code exactly as it will scan." actions={<Link to="/qr" className="button">Back to QR codes</Link>} />
      <QrDesigner
        initial={emptyQrForm}
        submitLabel="Create QR code"
        onCancel={() => navigate('/qr')}
        onSubmit={async (values) => {
          await create.mutateAsync(toCreateBody(values))
          navigate('/qr', { state: { notice: 'QR code created. Download it from the list, or open its statistics.' } })
        }}
      />
    </>
  )
}

export function EditQrPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const update = useUpdateQrCode()
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
            await update.mutateAsync({ id, body })
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
