// Deleting a campaign: its links stay, they only leave it; the rotator and list page stop working.
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { useDeleteCampaign } from './campaign-queries'

export function DeleteCampaignDialog({ campaign, onClose, onDeleted }: { campaign: { id: number; name: string; rotator: string | false }; onClose(): void; onDeleted?(): void }) {
  const deletion = useDeleteCampaign()
  return (
    <DeleteRecordDialog
      title="Delete this campaign?"
      confirmLabel="Delete campaign"
      deletion={deletion}
      id={campaign.id}
      onClose={onClose}
      onDeleted={onDeleted}
    >
      <p>
        <strong>{campaign.name}</strong> will be deleted{campaign.rotator ? ' and its rotator address will stop working' : ''}. Its links stay; they only leave the campaign. This cannot be undone.
      </p>
    </DeleteRecordDialog>
  )
}
