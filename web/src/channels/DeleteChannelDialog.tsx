// Deleting a channel: its items stay, they only leave it (spec).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, messageOf, unwrap } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { useRefreshUsage } from '../usage/plan-usage'

export function DeleteChannelDialog({ channel, onClose, onDeleted }: { channel: { id: number; name: string }; onClose(): void; onDeleted?(): void }) {
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/channel/{id}/delete', { params: { path: { id: channel.id } } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['channels'] }), refreshUsage()])
      onClose()
      onDeleted?.()
    },
  })
  return (
    <ConfirmDialog title="Delete this channel?" confirmLabel="Delete channel" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate()} onCancel={onClose}>
      <p><strong>{channel.name}</strong> will be deleted. Its links, bio pages and QR codes stay; they only leave the channel. This cannot be undone.</p>
    </ConfirmDialog>
  )
}
