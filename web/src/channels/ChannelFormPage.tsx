// Create a channel, or change one's name, description, color and star.
import { Link, useNavigate, useParams } from 'react-router'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { ChannelForm } from './ChannelForm'
import { emptyChannelForm, toChannelBody } from './channel-form'
import { useChannel, useCreateChannel, useUpdateChannel } from './channel-queries'

export function CreateChannelPage() {
  const navigate = useNavigate()
  const create = useCreateChannel()
  return (
    <>
      <PageHeader title="New channel" description="A shelf for the links, bio pages and QR codes of one place you publish in." />
      <ChannelForm
        mode="create"
        initial={emptyChannelForm}
        submitLabel="Create channel"
        onCancel={() => navigate('/channels')}
        onSubmit={async (values) => {
          const created = await create.mutateAsync(toChannelBody(values))
          navigate(`/channels/${created.id}`, { state: { notice: 'Channel created. Now add its items.' } })
        }}
      />
    </>
  )
}

export function EditChannelPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const update = useUpdateChannel()
  const channel = useChannel(id)
  return (
    <>
      <PageHeader title="Edit channel" description={channel.data?.name} actions={<Link to={`/channels/${id}`} className="button">Back to the channel</Link>} />
      {channel.isError ? <ErrorMessage error={channel.error} onRetry={() => channel.refetch()} /> : !channel.data ? <Loading label="Loading the channel…" /> : (
        <ChannelForm
          mode="edit"
          initial={{ name: channel.data.name, description: channel.data.description, color: channel.data.color, starred: channel.data.starred }}
          submitLabel="Save changes"
          onCancel={() => navigate(`/channels/${id}`)}
          onSubmit={async (values) => {
            await update.mutateAsync({ id, body: toChannelBody(values) })
            navigate(`/channels/${id}`, { state: { notice: 'Channel saved.' } })
          }}
        />
      )}
    </>
  )
}
