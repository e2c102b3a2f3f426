// Stars or unstars a channel in one click (starred channels are listed first).
import { useUpdateChannel } from './channel-queries'

/** `reasonId`: the role's reason on the page; given, the button is disabled and points at it. */
export function StarButton({ channel, reasonId }: { channel: { id: number; name: string; starred: boolean }; reasonId?: string }) {
  const toggle = useUpdateChannel()
  return (
    <button
      type="button"
      className="button small ghost"
      aria-pressed={channel.starred}
      disabled={toggle.isPending || reasonId !== undefined}
      aria-describedby={reasonId}
      title={toggle.isError ? 'Could not change the star. Try again.' : undefined}
      onClick={() => toggle.mutate({ id: channel.id, body: { starred: !channel.starred } })}
    >
      <span className="star" aria-hidden="true">{channel.starred ? '★' : '☆'}</span> {channel.starred ? 'Starred' : 'Star'}<span className="visually-hidden"> {channel.name}</span>
    </button>
  )
}
