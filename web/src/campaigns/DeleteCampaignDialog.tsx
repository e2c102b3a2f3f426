// Deleting a campaign: its links stay, they only leave it; the rotator and list page stop working.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, messageOf, unwrap } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { useRefreshUsage } from '../usage/plan-usage'

export function DeleteCampaignDialog({ campaign, onClose, onDeleted }: { campaign: { id: number; name: string; rotator: string | false }; onClose(): void; onDeleted?(): void }) {
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/campaign/{id}/delete', { params: { path: { id: campaign.id } } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['campaigns'] }), queryClient.invalidateQueries({ queryKey: ['links'] }), refreshUsage()])
      onClose()
      onDeleted?.()
    },
  })
  return (
    <ConfirmDialog title="Delete this campaign?" confirmLabel="Delete campaign" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate()} onCancel={onClose}>
      <p>
        <strong>{campaign.name}</strong> will be deleted{campaign.rotator ? ' and its rotator address will stop working' : ''}. Its links stay; they only leave the campaign. This cannot be undone.
      </p>
    </ConfirmDialog>
  )
}
