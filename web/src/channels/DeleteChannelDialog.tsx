// Deleting a channel: its items stay, they only leave it (spec).
import { api, unwrap } from '../api/client'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'

export function DeleteChannelDialog({ channel, onClose, onDeleted }: { channel: { id: number; name: string }; onClose(): void; onDeleted?(): void }) {
  return (
    <DeleteRecordDialog
      title="Delete this channel?"
      confirmLabel="Delete channel"
      remove={() => unwrap(api.DELETE('/api/channel/{id}/delete', { params: { path: { id: channel.id } } }))}
      lists={[['channels']]}
      onClose={onClose}
      onDeleted={onDeleted}
    >
      <p><strong>{channel.name}</strong> will be deleted. Its links, bio pages and QR codes stay; they only leave the channel. This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
