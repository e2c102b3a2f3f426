// Stars or unstars a channel in one click (starred channels are listed first).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'

/** `reasonId`: the role's reason on the page; given, the button is disabled and points at it. */
export function StarButton({ channel, reasonId }: { channel: { id: number; name: string; starred: boolean }; reasonId?: string }) {
  const queryClient = useQueryClient()
  const toggle = useMutation({
    mutationFn: () => unwrap(api.PUT('/api/channel/{id}/update', { params: { path: { id: channel.id } }, body: { starred: !channel.starred } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['channels'] }),
  })
  return (
    <button
      type="button"
      className="button small ghost"
      aria-pressed={channel.starred}
      disabled={toggle.isPending || reasonId !== undefined}
      aria-describedby={reasonId}
      title={toggle.isError ? 'Could not change the star. Try again.' : undefined}
      onClick={() => toggle.mutate()}
    >
      <span className="star" aria-hidden="true">{channel.starred ? '★' : '☆'}</span> {channel.starred ? 'Starred' : 'Star'}<span className="visually-hidden"> {channel.name}</span>
    </button>
  )
}
