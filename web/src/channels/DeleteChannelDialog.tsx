// Deleting a channel: its items stay, they only leave it (spec).
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { useDeleteChannel } from './channel-queries'

export function DeleteChannelDialog({ channel, onClose, onDeleted }: { channel: { id: number; name: string }; onClose(): void; onDeleted?(): void }) {
  const deletion = useDeleteChannel()
  return (
    <DeleteRecordDialog
      title="Delete this channel?"
      confirmLabel="Delete channel"
      deletion={deletion}
      id={channel.id}
      onClose={onClose}
      onDeleted={onDeleted}
    >
      <p><strong>{channel.name}</strong> will be deleted. Its links, bio pages and QR codes stay; they only leave the channel. This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
