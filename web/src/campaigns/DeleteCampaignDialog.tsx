// Deleting a campaign: its links stay, they only leave it; the rotator and list page stop working.
import { api, unwrap } from '../api/client'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'

export function DeleteCampaignDialog({ campaign, onClose, onDeleted }: { campaign: { id: number; name: string; rotator: string | false }; onClose(): void; onDeleted?(): void }) {
  return (
    <DeleteRecordDialog
      title="Delete this campaign?"
      confirmLabel="Delete campaign"
      remove={() => unwrap(api.DELETE('/api/campaign/{id}/delete', { params: { path: { id: campaign.id } } }))}
      lists={[['campaigns'], ['links']]}
      onClose={onClose}
      onDeleted={onDeleted}
    >
      <p>
        <strong>{campaign.name}</strong> will be deleted{campaign.rotator ? ' and its rotator address will stop working' : ''}. Its links stay; they only leave the campaign. This cannot be undone.
      </p>
    </DeleteRecordDialog>
  )
}
