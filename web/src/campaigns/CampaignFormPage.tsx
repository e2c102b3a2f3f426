// Create a campaign, or change one's name, rotator slug and visibility.
import { Link, useNavigate, useParams } from 'react-router'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { CampaignForm } from './CampaignForm'
import { emptyCampaignForm, slugOfRotator, toCampaignCreateBody, toCampaignUpdateBody } from './campaign-form'
import { useCampaign, useCreateCampaign, useUpdateCampaign } from './campaign-queries'

const rotatorBase = () => `${window.location.origin}/r/`

export function CreateCampaignPage() {
  const navigate = useNavigate()
  const create = useCreateCampaign()
  return (
    <>
      <PageHeader title="New campaign" description="Group links, give them one rotating address and see their visits together." />
      <CampaignForm
        mode="create"
        initial={emptyCampaignForm}
        rotatorBase={rotatorBase()}
        submitLabel="Create campaign"
        onCancel={() => navigate('/campaigns')}
        onSubmit={async (values) => {
          const created = await create.mutateAsync(toCampaignCreateBody(values))
          navigate(`/campaigns/${created.id}`, { state: { notice: 'Campaign created. Now add its links.' } })
        }}
      />
    </>
  )
}

export function EditCampaignPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const update = useUpdateCampaign()
  const campaign = useCampaign(id)
  return (
    <>
      <PageHeader title="Edit campaign" description={campaign.data?.name} actions={<Link to={`/campaigns/${id}`} className="button">Back to the campaign</Link>} />
      {campaign.isError ? <ErrorMessage error={campaign.error} onRetry={() => campaign.refetch()} /> : !campaign.data ? <Loading label="Loading the campaign…" /> : (
        <CampaignForm
          mode="edit"
          initial={{ name: campaign.data.name, slug: slugOfRotator(campaign.data.rotator), isPublic: campaign.data.public }}
          rotatorBase={rotatorBase()}
          submitLabel="Save changes"
          onCancel={() => navigate(`/campaigns/${id}`)}
          onSubmit={async (values) => {
            await update.mutateAsync({ id, body: toCampaignUpdateBody(values) })
            navigate(`/campaigns/${id}`, { state: { notice: 'Campaign saved.' } })
          }}
        />
      )}
    </>
  )
}
