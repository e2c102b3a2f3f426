// Create a channel, or change one's name, description, color and star.
import { useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from 'react-router'
import { useRefreshUsage } from '../account/account-queries'
import { api, unwrap } from '../api/client'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { ChannelForm } from './ChannelForm'
import { emptyChannelForm, toChannelBody } from './channel-form'
import { useChannel } from './channel-queries'

export function CreateChannelPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  return (
    <>
      <PageHeader title="New channel" description="A shelf for the links, bio pages and QR codes of one place you publish in." />
      <ChannelForm
        mode="create"
        initial={emptyChannelForm}
        submitLabel="Create channel"
        onCancel={() => navigate('/channels')}
        onSubmit={async (values) => {
          const created = await unwrap(api.POST('/api/channel/add', { body: toChannelBody(values) }))
          await Promise.all([queryClient.invalidateQueries({ queryKey: ['channels'] }), refreshUsage()])
          navigate(`/channels/${created.id}`, { state: { notice: 'Channel created. Now add its items.' } })
        }}
      />
    </>
  )
}

export function EditChannelPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
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
            await unwrap(api.PUT('/api/channel/{id}/update', { params: { path: { id } }, body: toChannelBody(values) }))
            await queryClient.invalidateQueries({ queryKey: ['channels'] })
            navigate(`/channels/${id}`, { state: { notice: 'Channel saved.' } })
          }}
        />
      )}
    </>
  )
}
